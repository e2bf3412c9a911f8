unsigned absdiff(unsigned a, unsigned b) {
    return a > b ? a - b : b - a;
}
