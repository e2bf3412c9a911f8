double clampd(double x, double lo, double hi) {
    return x > hi ? hi : (x < lo ? lo : x);
}
