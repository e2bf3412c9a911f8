/* reason: the perimeter of a w by h rectangle is 2 * (w + h); the buggy 2 * w + h counts the height only once (and, unlike the fixed result, can be odd, so only the fixed one is bounded by the largest even int). */
int task(int w, int h) {
    int p = 2 * (w + h);
    return p;
}
