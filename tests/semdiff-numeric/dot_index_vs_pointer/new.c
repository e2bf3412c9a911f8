double dot4(const double *a, const double *b) {
    double s = 0.0;
    const double *end = a + 4;
    while (a < end)
        s += *a++ * *b++;
    return s;
}
