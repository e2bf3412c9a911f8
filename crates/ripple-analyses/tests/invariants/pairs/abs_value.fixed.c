/* reason: the buggy conditional gives x for negative x and -x otherwise, so its result is never positive; the fixed one gives |x| <= 1000 (no overflow inside the guard, the guard returns 0), never negative. */
int task(int x) {
    if (x < -1000 || x > 1000)
        return 0;
    int r = x < 0 ? -x : x;
    return r;
}
