double third(double x) {
    return x * (1.0 / 3.0);
}
