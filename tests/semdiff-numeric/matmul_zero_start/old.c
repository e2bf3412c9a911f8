double mat2_entry(double a0, double a1, double b0, double b1) {
    double s = 0.0;
    double a[2] = {a0, a1}, b[2] = {b0, b1};
    for (int k = 0; k < 2; k++)
        s += a[k] * b[k];
    return s;
}
