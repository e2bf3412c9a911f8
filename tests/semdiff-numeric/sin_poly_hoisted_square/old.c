double sin5(double x) {
    return x - x * x * x / 6.0 + x * x * x * x * x / 120.0;
}
