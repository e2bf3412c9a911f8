/* reason: the buggy test is y % 4 == 0 alone; the Gregorian rule also excludes centuries not divisible by 400, a different expression (they differ at y = 1900). */
int task(int y) {
    int leap = (y % 4 == 0) & (y % 100 != 0) | (y % 400 == 0);
    return leap;
}
