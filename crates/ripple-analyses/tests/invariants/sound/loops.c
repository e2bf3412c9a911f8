int sum_to(int n) {
    int s = 0;
    int i;
    if (n < 0 || n > 100) return -1;
    for (i = 0; i < n; i++) s += i;
    return s + i - i;
}

int count_down(int n) {
    int k = n;
    while (k > 0) k--;
    return k;
}

int steps(int n) {
    int c = 0;
    if (n <= 0) return 0;
again:
    c++;
    n = n / 2;
    if (n > 0) goto again;
    return c;
}
