int orient(int ax, int ay, int bx, int by, int cx, int cy) {
    long long u = (long long)(bx - ax) * (cy - ay);
    long long v = (long long)(by - ay) * (cx - ax);
    long long cr = u - v;
    return (cr > 0) - (cr < 0);
}
