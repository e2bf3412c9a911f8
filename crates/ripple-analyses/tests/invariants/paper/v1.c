int use(int x, int y);

int f(int a, int b) {
    int c = b;
    int x = a;
    int y;
    y = 2;
    return use(x, y);
}
