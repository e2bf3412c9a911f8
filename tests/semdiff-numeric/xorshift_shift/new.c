unsigned xorshift32(unsigned x) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 5;
    return x;
}
