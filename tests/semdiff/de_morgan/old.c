int both_positive(int a, int b) {
    if (!(a > 0 && b > 0))
        return 0;
    return 1;
}
