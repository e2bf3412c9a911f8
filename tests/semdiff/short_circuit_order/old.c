int f(int x, int *c) {
    return x > 0 && ++*c > 1;
}
