unsigned ipow(unsigned base, unsigned e) {
    unsigned r = 1;
    e &= 15;
    while (e) {
        if (e & 1u)
            r *= base;
        base *= base;
        e >>= 1;
    }
    return r;
}
