/* buggy: median of three as c clamped to [min(a,b), max(a,b)], but the swap test is reversed */
int task(int a, int b, int c) {
    int lo = a;
    int hi = b;
    if (lo < hi) {
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
