void sort4(int *a) {
    for (int i = 1; i < 4; i++) {
        int v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] >= v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}
