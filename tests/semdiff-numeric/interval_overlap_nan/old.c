int overlapd(double amin, double amax, double bmin, double bmax) {
    return amin <= bmax && bmin <= amax;
}
