double sum3k(double a, double b, double c) {
    double s = a, comp = 0.0;
    double v[2] = {b, c};
    for (int i = 0; i < 2; i++) {
        double y = v[i] - comp;
        double t = s + y;
        comp = (t - s) - y;
        s = t;
    }
    return s;
}
