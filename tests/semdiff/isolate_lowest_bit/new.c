unsigned low(unsigned x) {
    return x & (~x + 1);
}
