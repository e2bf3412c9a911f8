double half(double x) {
    return x / 2.0;
}
