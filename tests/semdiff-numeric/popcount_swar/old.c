int popcount(unsigned x) {
    int c = 0;
    for (int i = 0; i < 32; i++)
        c += (x >> i) & 1u;
    return c;
}
