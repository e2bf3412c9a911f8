/* reason: for negative n in the guard's range n % 10 is in -9..0, so the buggy minimum is -9 (n = -9); abs(n) % 10 is a digit 0..9 (abs cannot overflow for |n| <= 100000), so the fixed minimum is 0. */
int abs(int);
int task(int n) {
    if (n < -100000 || n > 100000)
        return 0;
    int d = abs(n) % 10;
    return d;
}
