int sum(const int *a) {
    int s = 0;
    for (int i = 7; i >= 0; i--)
        s += a[i];
    return s;
}
