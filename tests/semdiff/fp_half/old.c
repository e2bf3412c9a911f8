double half(double x) {
    return x * 0.5;
}
