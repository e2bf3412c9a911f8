int f(int c) {
    signed char b = (signed char)c;
    return b;
}
