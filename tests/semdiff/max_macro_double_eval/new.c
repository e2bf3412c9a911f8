static int next(int *c) {
    return ++*c;
}
static int max(int a, int b) {
    return a > b ? a : b;
}
int f(int *c, int y) {
    return max(next(c), y);
}
