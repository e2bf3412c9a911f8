unsigned fmix32(unsigned h) {
    unsigned a = (h ^ (h >> 16)) * 0x85ebca6bu;
    unsigned b = (a ^ (a >> 13)) * 0xc2b2ae35u;
    return b ^ (b >> 16);
}
