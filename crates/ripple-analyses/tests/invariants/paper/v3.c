int use(int x, int y);

int f(int a, int b) {
    int c = b;
    int x = a;
    int y;
    x = 3;
    if (c > 0) x = 4;
    else x = 4;
    y = x - 2;
    return use(x, y);
}
