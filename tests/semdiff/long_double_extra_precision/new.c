double rounding_error(double a, double b) {
    double t = a;
    t = t * b;
    return (double)(t - (a * b));
}
