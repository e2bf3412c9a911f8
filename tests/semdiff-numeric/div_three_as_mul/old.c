double third(double x) {
    return x / 3.0;
}
