unsigned avg_u(unsigned a, unsigned b) {
    return (a & b) + ((a ^ b) >> 1);
}
