int f(int x) {
    int y;
    __asm__ volatile("" : "=r"(y) : "0"(x));
    return y + x;
}
