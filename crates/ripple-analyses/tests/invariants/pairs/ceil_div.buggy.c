/* buggy: rounding a / b up with (a + b) / b overshoots exact divisions */
int task(int a, int b) {
    if (a < 0 || a > 1000 || b < 1 || b > 100)
        return 0;
    int q = (a + b) / b;
    return q;
}
