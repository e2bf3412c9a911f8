int sum(const int *p) {
    int s = 0;
    for (int i = 0; i < 6; i++)
        s += *(p + i);
    return s;
}
