/* Marks the third element of the array a points into. */
void mark(int *a) {
    a[2] = 1;
}
