/* reason: the n-th term of a, a + d, a + 2d, ... is a + (n - 1) * d; the buggy version computes the (n + 1)-th term a + n * d, and the two expressions differ whenever d != 0. */
int task(int a, int d, int n) {
    int t = a + (n - 1) * d;
    return t;
}
