double mat2_entry(double a0, double a1, double b0, double b1) {
    return a0 * b0 + a1 * b1;
}
