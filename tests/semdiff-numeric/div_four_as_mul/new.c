double quarter(double x) {
    return x * 0.25;
}
