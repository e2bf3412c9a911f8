unsigned rotl(unsigned x, unsigned r) {
    r &= 31;
    if (r == 0)
        return x;
    return (x << r) | (x >> (32 - r));
}
