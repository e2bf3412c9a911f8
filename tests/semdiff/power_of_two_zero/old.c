int is_pow2(unsigned x) {
    return (x & (x - 1)) == 0;
}
