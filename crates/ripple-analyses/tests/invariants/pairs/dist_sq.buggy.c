/* buggy: squared distance subtracts the y term */
int task(int x1, int y1, int x2, int y2) {
    if (x1 < 0 || x1 > 10 || y1 < 0 || y1 > 10 || x2 < 0 || x2 > 10 || y2 < 0 || y2 > 10)
        return 0;
    int dx = x2 - x1;
    int dy = y2 - y1;
    int d = dx * dx - dy * dy;
    return d;
}
