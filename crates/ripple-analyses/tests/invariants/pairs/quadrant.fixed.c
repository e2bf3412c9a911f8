/* reason: the buggy version sends every point on an axis to quadrant 4, so its results are 1..4 (minimum 1); the added axis test returns 0 for them, so the minimum becomes 0. */
int task(int x, int y) {
    if (x == 0 || y == 0)
        return 0;
    if (x > 0 && y > 0)
        return 1;
    if (x < 0 && y > 0)
        return 2;
    if (x < 0 && y < 0)
        return 3;
    return 4;
}
