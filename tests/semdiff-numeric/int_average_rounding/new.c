int avg_i(int a, int b) {
    return a + (b - a) / 2;
}
