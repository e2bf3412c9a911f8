unsigned f(unsigned x) {
    if (x == 0)
        return 0;
    unsigned b = 1;
    while (!(x & b))
        b <<= 1;
    return x & ~b;
}
