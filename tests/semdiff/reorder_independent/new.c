int f(int a, int b) {
    int y = b + 1;
    int x = a * 3;
    return x - y;
}
