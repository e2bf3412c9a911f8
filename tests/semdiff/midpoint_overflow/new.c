int mid(int a, int b) {
    return a + (b - a) / 2;
}
