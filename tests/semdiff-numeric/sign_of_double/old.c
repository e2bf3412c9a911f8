int sgn(double x) {
    return (x > 0) - (x < 0);
}
