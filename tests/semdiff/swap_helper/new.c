static void swap(int *x, int *y) {
    int t = *x;
    *x = *y;
    *y = t;
}
void sort2(int *a, int *b) {
    if (*a > *b)
        swap(a, b);
}
