/* buggy: copy-paste error, the third update assigns b instead of c */
int task(int a, int b, int c) {
    int m = a;
    if (b < m)
        m = b;
    if (c < m)
        m = b;
    return m;
}
