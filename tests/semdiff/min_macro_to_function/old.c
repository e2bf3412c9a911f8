#define MIN(a, b) ((a) < (b) ? (a) : (b))
int f(int x, int y) {
    return MIN(x, y) * 2;
}
