int sum(const int *a, int n) {
    int s = 0;
    n &= 7;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
