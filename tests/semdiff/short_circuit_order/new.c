int f(int x, int *c) {
    return ++*c > 1 && x > 0;
}
