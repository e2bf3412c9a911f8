struct mat2 {
    double a, b, c, d;
};
double det2(struct mat2 m) {
    return m.a * m.d - m.b * m.c;
}
