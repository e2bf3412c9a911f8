double quarter(double x) {
    return x / 4.0;
}
