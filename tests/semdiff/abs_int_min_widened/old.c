long labs_of(int x) {
    return x < 0 ? -x : x;
}
