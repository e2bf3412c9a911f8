double rounding_error(double a, double b) {
    long double t = a;
    t = t * b;
    return (double)(t - (long double)(a * b));
}
