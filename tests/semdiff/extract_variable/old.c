int f(int a, int b) {
    return (a + b) * (a + b) + a;
}
