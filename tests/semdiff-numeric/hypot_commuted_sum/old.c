double norm2(double x, double y) {
    return x * x + y * y;
}
