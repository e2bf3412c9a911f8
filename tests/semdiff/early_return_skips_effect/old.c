int f(int x, int *count) {
    *count += 1;
    if (x < 0)
        return 0;
    return x;
}
