double cos4(double x) {
    return 1.0 - x * x / 2.0 + x * x * x * x / 24.0;
}
