int iabs(int x) {
    int m = x >> 31;
    return (x ^ m) - m;
}
