/* reason: the buggy version returns 1 for negative x too, so its result is never negative (minimum 0); the fixed one returns -1 for them, so the tightest lower bound becomes -1. */
int task(int x) {
    if (x > 0)
        return 1;
    if (x < 0)
        return -1;
    return 0;
}
