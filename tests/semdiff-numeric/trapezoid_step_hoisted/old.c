double trapezoid(double a, double b) {
    double s = 0.0;
    for (int i = 0; i < 8; i++) {
        double x0 = a + i * ((b - a) / 8);
        double x1 = a + (i + 1) * ((b - a) / 8);
        s += (x0 * x0 + x1 * x1) * ((b - a) / 8) / 2;
    }
    return s;
}
