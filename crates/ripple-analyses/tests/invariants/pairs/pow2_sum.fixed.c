/* reason: 1 + 2 + ... + 2^n equals 2^(n+1) - 1, which for n <= 29 reaches 2^30 - 1 (the fixed maximum); the buggy 2^n - 1 stops at 2^29 - 1. */
int task(int n) {
    if (n < 0 || n > 29)
        return 0;
    int s = (1 << (n + 1)) - 1;
    return s;
}
