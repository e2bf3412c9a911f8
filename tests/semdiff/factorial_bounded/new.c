unsigned fact(unsigned n) {
    if (n > 6)
        return 0;
    unsigned r = 1;
    for (unsigned i = 2; i <= n; i++)
        r *= i;
    return r;
}
