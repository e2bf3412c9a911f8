unsigned djb2(unsigned a, unsigned b, unsigned c) {
    unsigned h = 5381;
    h = h * 33 + a;
    h = h * 33 + b;
    h = h * 33 + c;
    return h;
}
