/* reason: with the reversed test the buggy version puts the larger value in lo (hi <= lo) and then always ends with mid = hi; with lo <= hi the clamp of c to [lo, hi] gives the median, so lo <= mid <= hi. */
int task(int a, int b, int c) {
    int lo = a;
    int hi = b;
    if (lo > hi) {
        lo = b;
        hi = a;
    }
    int mid = c;
    if (mid < lo)
        mid = lo;
    if (mid > hi)
        mid = hi;
    return mid;
}
