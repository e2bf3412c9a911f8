/* reason: h % 12 is at most 11 and gives 0 for midnight and noon; mapping 0 to 12 makes the result range 1..12 (or -1 for bad input), so the tightest upper bound grows from 11 to 12. */
int task(int h) {
    if (h < 0 || h > 23)
        return -1;
    int r = h % 12;
    if (r == 0) r = 12;
    return r;
}
