int sum_squares(int n) {
    int s = 0;
    if (n > 100)
        n = 100;
    for (int i = 0; i < n; i++)
        s += i * i;
    return s;
}
