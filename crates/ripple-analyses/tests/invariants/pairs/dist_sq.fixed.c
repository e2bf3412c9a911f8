/* reason: with coordinates in 0..10, dx * dx - dy * dy is at most 100 (dy = 0) and reaches -100; the sum of two squares reaches 200, so `return <= 100` holds only in the buggy version, and it is never negative, so `return >= 0` holds only in the fixed one. */
int task(int x1, int y1, int x2, int y2) {
    if (x1 < 0 || x1 > 10 || y1 < 0 || y1 > 10 || x2 < 0 || x2 > 10 || y2 < 0 || y2 > 10)
        return 0;
    int dx = x2 - x1;
    int dy = y2 - y1;
    int d = dx * dx + dy * dy;
    return d;
}
