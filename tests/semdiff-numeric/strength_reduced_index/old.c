int weighted(int n) {
    int s = 0;
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++)
        s += i * 7;
    return s;
}
