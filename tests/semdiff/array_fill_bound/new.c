void clear(int *a) {
    for (int i = 0; i <= 4; i++)
        a[i] = 0;
}
