int f(int x, int *count) {
    if (x < 0)
        return 0;
    *count += 1;
    return x;
}
