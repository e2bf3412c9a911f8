double fmax2(double a, double b) {
    return !(a <= b) ? a : b;
}
