int f(int x) {
    int y = x * 7;
    y = x + 1;
    return y;
}
