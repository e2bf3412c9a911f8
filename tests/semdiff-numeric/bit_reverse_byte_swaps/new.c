unsigned rev8(unsigned x) {
    unsigned b = x & 0xffu;
    b = (b & 0xf0u) >> 4 | (b & 0x0fu) << 4;
    b = (b & 0xccu) >> 2 | (b & 0x33u) << 2;
    b = (b & 0xaau) >> 1 | (b & 0x55u) << 1;
    return b;
}
