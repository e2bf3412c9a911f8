struct mat2 {
    double a, b, c, d;
};
double det2(struct mat2 m) {
    double e[4];
    e[0] = m.a;
    e[1] = m.b;
    e[2] = m.c;
    e[3] = m.d;
    return e[0] * e[3] - e[1] * e[2];
}
