double sum4(const double *a) {
    double s = 0.0;
    for (int i = 0; i < 4; i++)
        s += a[i];
    return s;
}
