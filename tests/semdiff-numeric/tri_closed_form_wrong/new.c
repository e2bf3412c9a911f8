int tri(int n) {
    if (n < 0)
        n = 0;
    if (n > 1000)
        n = 1000;
    return n * (n - 1) / 2;
}
