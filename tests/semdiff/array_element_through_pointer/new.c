/* Marks the third element with another value. */
void mark(int *a) {
    a[2] = 2;
}
