double f(int a) {
    double d = a * 0.5;
    return d;
}
