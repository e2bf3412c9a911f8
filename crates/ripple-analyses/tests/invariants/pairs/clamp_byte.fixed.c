/* reason: without the second test a negative v is returned unchanged, so nothing bounds the result from below; with it every path leaves v (and the result) >= 0. */
int task(int v) {
    if (v > 255)
        v = 255;
    if (v < 0)
        v = 0;
    return v;
}
