/* reason: for an exact division (a = 1000, b = 1) (a + b) / b gives a / b + 1 = 1001, so the buggy maximum is 1001; (a + b - 1) / b is the ceiling of a / b, at most a, so the fixed maximum is 1000. */
int task(int a, int b) {
    if (a < 0 || a > 1000 || b < 1 || b > 100)
        return 0;
    int q = (a + b - 1) / b;
    return q;
}
