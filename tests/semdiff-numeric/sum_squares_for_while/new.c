int sum_squares(int n) {
    int s = 0;
    int i = 0;
    if (n > 100)
        n = 100;
    while (i < n) {
        s += i * i;
        i++;
    }
    return s;
}
