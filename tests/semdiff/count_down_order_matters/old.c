int f(int s) {
    for (int i = 0; i < 4; i++)
        s = s * 3 + i;
    return s;
}
