double lerp_sum(double a, double b) {
    double s = 0.0;
    for (int i = 0; i < 4; i++) {
        double t = i * 0.25;
        s += a + t * (b - a);
    }
    return s;
}
