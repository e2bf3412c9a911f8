int orient(int ax, int ay, int bx, int by, int cx, int cy) {
    long long cr = (long long)(bx - ax) * (cy - ay) - (long long)(by - ay) * (cx - ax);
    return cr > 0 ? 1 : (cr < 0 ? -1 : 0);
}
