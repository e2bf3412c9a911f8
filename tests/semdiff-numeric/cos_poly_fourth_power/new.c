double cos4(double x) {
    double x2 = x * x;
    return 1.0 - x2 / 2.0 + x2 * x2 / 24.0;
}
