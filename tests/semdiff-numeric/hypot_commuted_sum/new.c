double norm2(double x, double y) {
    return y * y + x * x;
}
