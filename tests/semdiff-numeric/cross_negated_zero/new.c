double cross_z(double ax, double ay, double bx, double by) {
    return -(ay * bx - ax * by);
}
