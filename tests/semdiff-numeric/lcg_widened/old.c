unsigned lcg(unsigned x) {
    return x * 1664525u + 1013904223u;
}
