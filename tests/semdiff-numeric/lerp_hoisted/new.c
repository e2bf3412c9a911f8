double lerp_sum(double a, double b) {
    double s = 0.0;
    double d = b - a;
    for (int i = 0; i < 4; i++)
        s += a + (i * 0.25) * d;
    return s;
}
