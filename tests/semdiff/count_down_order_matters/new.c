int f(int s) {
    for (int i = 3; i >= 0; i--)
        s = s * 3 + i;
    return s;
}
