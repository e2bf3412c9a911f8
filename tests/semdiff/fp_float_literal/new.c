double scale(double x) {
    return x * 0.1f;
}
