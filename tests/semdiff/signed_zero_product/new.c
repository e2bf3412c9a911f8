double f(double x) {
    return 0.0;
}
