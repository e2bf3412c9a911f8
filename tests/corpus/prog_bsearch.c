// Program: binary search (iterative, recursive, lower/upper bound) over a sorted array, checked against linear search.
#include <stdio.h>

static int bsearch_iter(const int *a, int n, int key) {
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] == key) return mid;
        if (a[mid] < key) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

static int bsearch_rec(const int *a, int lo, int hi, int key) {
    if (lo > hi) return -1;
    int mid = (lo + hi) >> 1;
    if (a[mid] == key) return mid;
    return a[mid] < key ? bsearch_rec(a, mid + 1, hi, key) : bsearch_rec(a, lo, mid - 1, key);
}

static int lower_bound(const int *a, int n, int key) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (a[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static int upper_bound(const int *a, int n, int key) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (a[mid] <= key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static int linear(const int *a, int n, int key) {
    for (int i = 0; i < n; i++)
        if (a[i] == key) return 1;
    return 0;
}

int main(void) {
    int a[50];
    int n = 0;
    for (int v = -20; n < 50; v += 3) a[n++] = v / 2;
    int mismatches = 0;
    for (int key = -15; key <= 80; key++) {
        int i = bsearch_iter(a, n, key);
        int r = bsearch_rec(a, 0, n - 1, key);
        int found = linear(a, n, key);
        if ((i >= 0) != found || (r >= 0) != found) mismatches++;
        if ((i >= 0 && a[i] != key) || (r >= 0 && a[r] != key)) mismatches++;
        int lb = lower_bound(a, n, key), ub = upper_bound(a, n, key);
        if (key % 9 == 0) printf("key %3d: found %d lower %2d upper %2d count %d\n", key, found, lb, ub, ub - lb);
    }
    printf("mismatches %d\n", mismatches);
    printf("first %d last %d\n", a[0], a[n - 1]);
    double xs[] = {0.5, 1.25, 2.0, 3.75, 8.0};
    double target = 3.0;
    int lo = 0, hi = 4;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (xs[mid] <= target) lo = mid;
        else hi = mid;
    }
    printf("%.2f lies in [%.2f, %.2f)\n", target, xs[lo], xs[hi]);
    double l = 0, h = 10;
    for (int it = 0; it < 60; it++) {
        double m = (l + h) / 2;
        if (m * m * m < 50) l = m;
        else h = m;
    }
    printf("cube root of 50 by bisection %.12f\n", l);
    return mismatches != 0;
}
