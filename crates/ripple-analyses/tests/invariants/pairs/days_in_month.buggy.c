/* buggy: February always has 29 days */
int task(int m, int y) {
    if (m == 2)
        return 29;
    if (m == 4 || m == 6 || m == 9 || m == 11)
        return 30;
    return 31;
}
