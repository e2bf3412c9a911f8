/* buggy: closed form of 1^2 + ... + n^2 divides by 3 instead of 6 */
int task(int n) {
    if (n < 0 || n > 100)
        return 0;
    int s = n * (n + 1) * (2 * n + 1) / 3;
    return s;
}
