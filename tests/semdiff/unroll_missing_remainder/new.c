int sum(const int *a, int n) {
    int s = 0;
    n &= 7;
    for (int i = 0; i + 1 < n; i += 2) {
        s += a[i];
        s += a[i + 1];
    }
    return s;
}
