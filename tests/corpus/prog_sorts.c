// Program: bubble, insertion, selection, quick and merge sort on the same data, checked against each other.
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#define N 40

static void bubble(int *a, int n) {
    for (int i = 0; i < n - 1; i++) {
        int swapped = 0;
        for (int j = 0; j < n - 1 - i; j++)
            if (a[j] > a[j + 1]) { int t = a[j]; a[j] = a[j + 1]; a[j + 1] = t; swapped = 1; }
        if (!swapped) break;
    }
}

static void insertion(int *a, int n) {
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
}

static void selection(int *a, int n) {
    for (int i = 0; i < n; i++) {
        int m = i;
        for (int j = i + 1; j < n; j++) if (a[j] < a[m]) m = j;
        int t = a[i]; a[i] = a[m]; a[m] = t;
    }
}

static void quick(int *a, int lo, int hi) {
    if (lo >= hi) return;
    int pivot = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < pivot) i++;
        while (a[j] > pivot) j--;
        if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
    }
    quick(a, lo, j);
    quick(a, i, hi);
}

static void merge_sort(int *a, int *tmp, int n) {
    if (n < 2) return;
    int h = n / 2;
    merge_sort(a, tmp, h);
    merge_sort(a + h, tmp, n - h);
    int i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < h) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

int main(void) {
    int base[N];
    unsigned seed = 12345;
    for (int i = 0; i < N; i++) {
        seed = seed * 1664525u + 1013904223u;
        base[i] = (int)(seed >> 24) - 128;
    }
    int a[5][N], tmp[N];
    for (int k = 0; k < 5; k++) memcpy(a[k], base, sizeof base);
    bubble(a[0], N);
    insertion(a[1], N);
    selection(a[2], N);
    quick(a[3], 0, N - 1);
    merge_sort(a[4], tmp, N);
    const char *names[] = {"bubble", "insertion", "selection", "quick", "merge"};
    for (int k = 1; k < 5; k++)
        printf("%s agrees with bubble: %d\n", names[k], memcmp(a[0], a[k], sizeof base) == 0);
    int sorted = 1;
    for (int i = 1; i < N; i++) sorted &= a[0][i - 1] <= a[0][i];
    printf("sorted %d\n", sorted);
    for (int i = 0; i < N; i++) printf("%d%c", a[3][i], i % 10 == 9 ? '\n' : ' ');
    int *heap = malloc(sizeof base);
    memcpy(heap, base, sizeof base);
    insertion(heap, N / 2);
    printf("half sorted: %d %d ... %d\n", heap[0], heap[1], heap[N / 2 - 1]);
    free(heap);
    return 0;
}
