/* reason: a - b is a wrapping difference that can take any int value (and has the wrong sign on overflow); (a > b) - (a < b) is always -1, 0 or 1. */
int task(int a, int b) {
    int r = (a > b) - (a < b);
    return r;
}
