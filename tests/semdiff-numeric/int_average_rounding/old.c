int avg_i(int a, int b) {
    return (a + b) / 2;
}
