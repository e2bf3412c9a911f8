int f(int n, int x) {
    int s = 0;
    n &= 7;
    for (int i = 0; i < n; i++)
        s += x;
    return s;
}
