unsigned ipow(unsigned base, unsigned e) {
    unsigned r = 1;
    e &= 15;
    for (unsigned i = 0; i < e; i++)
        r *= base;
    return r;
}
