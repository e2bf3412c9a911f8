int argmax(const int *a) {
    const int *best = a;
    for (const int *p = a + 1; p < a + 8; p++)
        if (*p > *best)
            best = p;
    return (int)(best - a);
}
