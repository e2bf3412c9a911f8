int triangle(int n) {
    int s = 0;
    n &= 7;
    for (int i = 1; i <= n; i++)
        s += i;
    return s;
}
