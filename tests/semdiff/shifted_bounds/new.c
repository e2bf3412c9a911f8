int triangle(int n) {
    int s = 0;
    n &= 7;
    for (int i = 0; i < n; i++)
        s += i + 1;
    return s;
}
