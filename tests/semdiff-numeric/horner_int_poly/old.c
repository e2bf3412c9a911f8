int poly(int x) {
    return 3 * x * x * x + 2 * x * x + x + 5;
}
