static int iabs(int v) {
    return v < 0 ? -v : v;
}
int manhattan(int ax, int ay, int bx, int by) {
    return iabs(bx - ax + by - ay);
}
