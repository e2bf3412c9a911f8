int is_pow2(unsigned x) {
    return x && !(x & (x - 1));
}
