int count(int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s++;
    return s;
}
