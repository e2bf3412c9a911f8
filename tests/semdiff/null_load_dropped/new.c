/* The load moved after the null test: a null p returns 0. */
int f(int *p) {
    return p ? *p : 0;
}
