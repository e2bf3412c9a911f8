/* The load happens before the null test: a null p traps here. */
int f(int *p) {
    int v = *p;
    return p ? v : 0;
}
