int sum(const int *a) {
    int s = 0;
    for (int i = 0; i < 8; i++)
        s += a[i];
    return s;
}
