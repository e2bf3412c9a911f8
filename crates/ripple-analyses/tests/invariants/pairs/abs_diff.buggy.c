/* buggy: absolute difference without abs */
int abs(int);
int task(int a, int b) {
    if (a < -1000 || a > 1000 || b < -1000 || b > 1000)
        return 0;
    int d = a - b;
    return d;
}
