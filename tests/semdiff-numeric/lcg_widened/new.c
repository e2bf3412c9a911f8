unsigned lcg(unsigned x) {
    unsigned long long w = (unsigned long long)x * 1664525u + 1013904223u;
    return (unsigned)w;
}
