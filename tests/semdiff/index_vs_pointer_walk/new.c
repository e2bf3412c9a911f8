int sum(const int *p) {
    int s = 0;
    for (const int *q = p; q != p + 6; q++)
        s += *q;
    return s;
}
