int f(int c) {
    unsigned char b = (unsigned char)c;
    return b;
}
