/* reason: with a, b in [-1000, 1000] the buggy a - b reaches -2000 (a = -1000, b = 1000), so its tightest lower bound is -2000; abs(a - b) cannot overflow there and the guard returns 0, so the fixed result is never negative and the lower bound tightens to 0. */
int abs(int);
int task(int a, int b) {
    if (a < -1000 || a > 1000 || b < -1000 || b > 1000)
        return 0;
    int d = abs(a - b);
    return d;
}
