/* buggy: n-th term of an arithmetic progression a, a + d, ... uses n instead of n - 1 */
int task(int a, int d, int n) {
    int t = a + n * d;
    return t;
}
