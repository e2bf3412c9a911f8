/* buggy: the two arms of the conditional are swapped */
int task(int x) {
    if (x < -1000 || x > 1000)
        return 0;
    int r = x < 0 ? x : -x;
    return r;
}
