/* reason: the overlap of two intervals starts at the larger left end, so lo must be >= l1 and l2; the buggy version takes the smaller one, lo <= l1 and lo <= l2. */
int task(int l1, int r1, int l2, int r2) {
    int lo = l1 > l2 ? l1 : l2;
    int hi = r1 < r2 ? r1 : r2;
    if (l1 < 0 || r1 > 1000 || l1 > r1 || l2 < 0 || r2 > 1000 || l2 > r2)
        return 0;
    int w = hi - lo;
    if (w < 0)
        w = 0;
    return w;
}
