/* buggy: closed form of 1 + 2 + ... + n uses n - 1 instead of n + 1 */
int task(int n) {
    if (n < 0 || n > 1000)
        return 0;
    int s = n * (n - 1) / 2;
    return s;
}
