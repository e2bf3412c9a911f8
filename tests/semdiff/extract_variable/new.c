int f(int a, int b) {
    int t = a + b;
    return t * t + a;
}
