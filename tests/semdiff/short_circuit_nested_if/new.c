int positive_at(const int *p) {
    if (!p)
        return 0;
    if (*p > 0)
        return 1;
    return 0;
}
