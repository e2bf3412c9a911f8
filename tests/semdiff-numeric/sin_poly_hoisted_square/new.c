double sin5(double x) {
    double x2 = x * x;
    double x3 = x2 * x;
    double x5 = x3 * x * x;
    return x - x3 / 6.0 + x5 / 120.0;
}
