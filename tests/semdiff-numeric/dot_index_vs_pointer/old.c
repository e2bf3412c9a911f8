double dot4(const double *a, const double *b) {
    double s = 0.0;
    for (int i = 0; i < 4; i++)
        s += a[i] * b[i];
    return s;
}
