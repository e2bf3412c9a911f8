double rad(double x) {
    return x * 3.141592653589793 / 180.0;
}
