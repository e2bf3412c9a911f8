int f(int x) {
    int s = 0;
    for (int i = 0; i < 10; i++)
        s += x ^ i;
    return s;
}
