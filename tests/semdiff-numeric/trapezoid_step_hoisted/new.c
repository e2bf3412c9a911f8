double trapezoid(double a, double b) {
    double h = (b - a) / 8;
    double s = 0.0;
    for (int i = 0; i < 8; i++) {
        double x0 = a + i * h;
        double x1 = a + (i + 1) * h;
        s += (x0 * x0 + x1 * x1) * h / 2;
    }
    return s;
}
