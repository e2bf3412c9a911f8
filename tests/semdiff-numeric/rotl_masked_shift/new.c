unsigned rotl(unsigned x, unsigned r) {
    r &= 31;
    return (x << r) | (x >> ((32 - r) & 31));
}
