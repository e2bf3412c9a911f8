int argmax(const int *a) {
    int best = 0;
    for (int i = 1; i < 8; i++)
        if (a[i] >= a[best])
            best = i;
    return best;
}
