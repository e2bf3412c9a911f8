int is_leap(int y) {
    if (y % 400 == 0)
        return 1;
    if (y % 100 == 0)
        return 0;
    return y % 4 == 0;
}
