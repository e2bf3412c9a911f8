unsigned absdiff(unsigned a, unsigned b) {
    unsigned hi = a < b ? b : a;
    unsigned lo = a < b ? a : b;
    return hi - lo;
}
