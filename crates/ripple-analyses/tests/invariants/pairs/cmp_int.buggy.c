/* buggy: three-way comparison by subtraction overflows and is not in -1..1 */
int task(int a, int b) {
    int r = a - b;
    return r;
}
