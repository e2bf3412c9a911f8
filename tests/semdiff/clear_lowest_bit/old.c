unsigned f(unsigned x) {
    return x & (x - 1);
}
