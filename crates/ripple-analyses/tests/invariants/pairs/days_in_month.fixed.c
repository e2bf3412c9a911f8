/* reason: the buggy version returns 29 for every February, so its smallest result is 29; the fixed one returns 28 for Februaries of years not divisible by 4, so the tightest lower bound drops to 28. */
int task(int m, int y) {
    if (m == 2)
        return y % 4 == 0 ? 29 : 28;
    if (m == 4 || m == 6 || m == 9 || m == 11)
        return 30;
    return 31;
}
