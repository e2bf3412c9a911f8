unsigned low(unsigned x) {
    return x & -x;
}
