/* buggy: points on an axis are reported in quadrant 4 */
int task(int x, int y) {
    if (x > 0 && y > 0)
        return 1;
    if (x < 0 && y > 0)
        return 2;
    if (x < 0 && y < 0)
        return 3;
    return 4;
}
