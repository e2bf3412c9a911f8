struct particle {
    double x;
    int id;
};
double shifted(struct particle p, double dx) {
    struct particle q;
    q = p;
    q.x += dx;
    return q.x * q.id;
}
