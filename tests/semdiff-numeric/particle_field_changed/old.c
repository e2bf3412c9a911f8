struct body {
    double x, y, vx, vy;
};
double step(struct body b, double dt) {
    b.x += b.vx * dt;
    b.y += b.vy * dt;
    return b.x;
}
