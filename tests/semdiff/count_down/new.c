int f(int x) {
    int s = 0;
    for (int i = 7; i >= 0; i--)
        s += x * i;
    return s;
}
