static int min(int a, int b) {
    return a < b ? a : b;
}
int f(int x, int y) {
    return min(x, y) * 2;
}
