int tri(int n) {
    int s = 0;
    if (n < 0)
        n = 0;
    if (n > 1000)
        n = 1000;
    for (int i = 1; i <= n; i++)
        s += i;
    return s;
}
