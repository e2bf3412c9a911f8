int f(int a, int b) {
    int x = a * 3;
    int y = b + 1;
    return x - y;
}
