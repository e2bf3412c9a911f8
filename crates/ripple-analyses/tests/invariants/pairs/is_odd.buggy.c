/* buggy: n % 2 == 1 is false for negative odd numbers */
int task(int n) {
    int odd = n % 2 == 1;
    return odd;
}
