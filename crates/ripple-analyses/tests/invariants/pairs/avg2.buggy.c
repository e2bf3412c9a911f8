/* buggy: precedence error, only the second score is halved */
int task(int a, int b) {
    if (a < 0 || a > 100 || b < 0 || b > 100)
        return 0;
    int avg = a + b / 2;
    return avg;
}
