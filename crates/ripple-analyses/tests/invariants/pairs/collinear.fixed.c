/* reason: the points are collinear when (x2 - x1) * (y3 - y1) - (y2 - y1) * (x3 - x1) is 0; the buggy second factor x2 - x1 makes the result depend on a different expression that ignores x3. */
int task(int x1, int y1, int x2, int y2, int x3, int y3) {
    int cross = (x2 - x1) * (y3 - y1) - (y2 - y1) * (x3 - x1);
    return cross == 0;
}
