int f(int x) {
    int s = 0;
    int i = 0;
    while (i < 10) {
        s += x ^ i;
        i++;
    }
    return s;
}
