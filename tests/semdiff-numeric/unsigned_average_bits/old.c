unsigned avg_u(unsigned a, unsigned b) {
    return (unsigned)(((unsigned long long)a + b) >> 1);
}
