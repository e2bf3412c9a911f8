/* buggy: 24-hour to 12-hour clock gives 0 for midnight and noon */
int task(int h) {
    if (h < 0 || h > 23)
        return -1;
    int r = h % 12;
    return r;
}
