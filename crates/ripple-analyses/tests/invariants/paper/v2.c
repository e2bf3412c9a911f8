int use(int x, int y);

int f(int a, int b) {
    int c = b;
    int x = a;
    int y;
    x = 3;
    y = x - 1;
    return use(x, y);
}
