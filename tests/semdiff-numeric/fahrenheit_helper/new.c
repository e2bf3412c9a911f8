static int scale(int d) {
    return d * 5 / 9;
}
int to_celsius(int f) {
    int d = f - 32;
    return scale(d);
}
