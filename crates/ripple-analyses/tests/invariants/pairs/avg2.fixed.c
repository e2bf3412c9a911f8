/* reason: for scores in 0..100 the buggy a + b / 2 reaches 100 + 50 = 150 (its tightest upper bound), while the true average (a + b) / 2 never exceeds 100, which is reached for a = b = 100. */
int task(int a, int b) {
    if (a < 0 || a > 100 || b < 0 || b > 100)
        return 0;
    int avg = (a + b) / 2;
    return avg;
}
