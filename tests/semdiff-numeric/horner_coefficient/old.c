int poly(int x) {
    return ((3 * x + 2) * x + 1) * x + 5;
}
