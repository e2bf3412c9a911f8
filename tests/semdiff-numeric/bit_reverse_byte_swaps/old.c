unsigned rev8(unsigned x) {
    unsigned r = 0;
    for (int i = 0; i < 8; i++) {
        r = (r << 1) | (x & 1u);
        x >>= 1;
    }
    return r;
}
