#define MAX(a, b) ((a) > (b) ? (a) : (b))
static int next(int *c) {
    return ++*c;
}
int f(int *c, int y) {
    return MAX(next(c), y);
}
