/* buggy: the negative branch returns 1 instead of -1 */
int task(int x) {
    if (x > 0)
        return 1;
    if (x < 0)
        return 1;
    return 0;
}
