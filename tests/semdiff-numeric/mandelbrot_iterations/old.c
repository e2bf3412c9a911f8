int mandel(double cr, double ci) {
    double zr = 0.0, zi = 0.0;
    int n = 0;
    while (n < 16 && zr * zr + zi * zi <= 4.0) {
        double t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        n++;
    }
    return n;
}
