/* reason: 1 + 2 + ... + n = n(n + 1) / 2, whose maximum over 0..1000 is 500500 (n = 1000); the buggy n(n - 1) / 2 (the sum up to n - 1) only reaches 499500. */
int task(int n) {
    if (n < 0 || n > 1000)
        return 0;
    int s = n * (n + 1) / 2;
    return s;
}
