/* reason: in C n % 2 is -1 for negative odd n, so n % 2 == 1 misses them; n % 2 != 0 is true exactly for odd n of either sign, a different function of n. */
int task(int n) {
    int odd = n % 2 != 0;
    return odd;
}
