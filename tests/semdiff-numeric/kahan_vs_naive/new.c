double sum3k(double a, double b, double c) {
    double s = a;
    double v[2] = {b, c};
    for (int i = 0; i < 2; i++)
        s += v[i];
    return s;
}
