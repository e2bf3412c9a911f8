/* buggy: last decimal digit of a possibly negative number without abs */
int abs(int);
int task(int n) {
    if (n < -100000 || n > 100000)
        return 0;
    int d = n % 10;
    return d;
}
