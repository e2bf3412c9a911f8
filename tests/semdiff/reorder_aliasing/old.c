void f(int *p, int *q) {
    *p = 1;
    *q = 2;
}
