int poly(int x) {
    return ((3 * x + 3) * x + 1) * x + 5;
}
