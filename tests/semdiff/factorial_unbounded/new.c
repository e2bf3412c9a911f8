unsigned fact(unsigned n) {
    unsigned r = 1;
    for (unsigned i = 2; i <= n; i++)
        r *= i;
    return r;
}
