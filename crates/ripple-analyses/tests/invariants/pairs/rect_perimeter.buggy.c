/* buggy: precedence error, only the width is doubled */
int task(int w, int h) {
    int p = 2 * w + h;
    return p;
}
