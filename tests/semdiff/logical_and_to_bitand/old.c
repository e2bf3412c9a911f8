int f(int a, int b) {
    return (a > 0) && (b > 0);
}
