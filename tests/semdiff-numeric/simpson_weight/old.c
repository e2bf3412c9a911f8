double simpson(double a, double b) {
    double h = (b - a) / 4;
    double s = a * a + b * b;
    for (int i = 1; i < 4; i++) {
        double x = a + i * h;
        s += (i % 2 ? 4 : 2) * x * x;
    }
    return s * h / 3;
}
