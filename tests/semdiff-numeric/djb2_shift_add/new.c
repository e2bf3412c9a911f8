static unsigned step(unsigned h, unsigned c) {
    return (h << 5) + h + c;
}
unsigned djb2(unsigned a, unsigned b, unsigned c) {
    return step(step(step(5381, a), b), c);
}
