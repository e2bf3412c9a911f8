/* buggy: the third comparison is against b instead of the running maximum */
int task(int a, int b, int c) {
    int m = a;
    if (b > m)
        m = b;
    if (c > b)
        m = c;
    return m;
}
