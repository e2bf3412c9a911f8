/* buggy: the cross product mixes up x3 and x2 in the second term */
int task(int x1, int y1, int x2, int y2, int x3, int y3) {
    int cross = (x2 - x1) * (y3 - y1) - (y2 - y1) * (x2 - x1);
    return cross == 0;
}
