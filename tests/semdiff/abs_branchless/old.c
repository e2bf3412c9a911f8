int iabs(int x) {
    return x < 0 ? -x : x;
}
