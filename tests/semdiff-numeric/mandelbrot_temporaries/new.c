int mandel(double cr, double ci) {
    double zr = 0.0, zi = 0.0;
    int n;
    for (n = 0; n < 16; n++) {
        double r2 = zr * zr;
        double i2 = zi * zi;
        if (r2 + i2 > 4.0 || r2 + i2 != r2 + i2)
            break;
        zi = 2.0 * zr * zi + ci;
        zr = r2 - i2 + cr;
    }
    return n;
}
