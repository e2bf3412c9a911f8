int positive_at(const int *p) {
    return p && *p > 0;
}
