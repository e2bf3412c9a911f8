double cross_z(double ax, double ay, double bx, double by) {
    return ax * by - ay * bx;
}
