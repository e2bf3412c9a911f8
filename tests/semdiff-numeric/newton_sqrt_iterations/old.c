double nsqrt(double x) {
    double g = x > 1.0 ? x : 1.0;
    for (int i = 0; i < 5; i++)
        g = 0.5 * (g + x / g);
    return g;
}
