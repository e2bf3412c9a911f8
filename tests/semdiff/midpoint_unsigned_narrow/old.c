unsigned mid(unsigned a, unsigned b) {
    return (a + b) / 2;
}
