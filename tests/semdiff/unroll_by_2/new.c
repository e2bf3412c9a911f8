int sum(const int *a, int n) {
    int s = 0;
    int i;
    n &= 7;
    for (i = 0; i + 1 < n; i += 2) {
        s += a[i];
        s += a[i + 1];
    }
    if (i < n)
        s += a[i];
    return s;
}
