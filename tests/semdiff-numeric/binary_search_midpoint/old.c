int lower_bound8(const int *a, int key) {
    int lo = 0, hi = 8;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
