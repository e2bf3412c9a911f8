/* reason: without parentheses 32 * 5 / 9 is folded first, so the buggy result is f - 17; the correct conversion is (f - 32) * 5 / 9, which is also bounded by INT_MAX / 9 after the division. */
int task(int f) {
    int c = (f - 32) * 5 / 9;
    return c;
}
