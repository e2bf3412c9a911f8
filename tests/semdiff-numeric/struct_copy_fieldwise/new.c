struct particle {
    double x;
    int id;
};
double shifted(struct particle p, double dx) {
    struct particle q;
    q.x = p.x;
    q.id = p.id;
    q.x = q.x + dx;
    return q.x * q.id;
}
