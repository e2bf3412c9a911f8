unsigned mid(unsigned a, unsigned b) {
    return (a & b) + ((a ^ b) >> 1);
}
