/* buggy: 1 + 2 + 4 + ... + 2^n is 2^(n+1) - 1, the buggy version computes 2^n - 1 */
int task(int n) {
    if (n < 0 || n > 29)
        return 0;
    int s = (1 << n) - 1;
    return s;
}
