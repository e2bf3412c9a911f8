unsigned mid(unsigned a, unsigned b) {
    return (unsigned)(((unsigned long)a + b) / 2);
}
