/* reason: the buggy third test compares c with b, so when a > b and a > c > b the result becomes c < a, hence a <= return fails; comparing with the running maximum m restores it. */
int task(int a, int b, int c) {
    int m = a;
    if (b > m)
        m = b;
    if (c > m)
        m = c;
    return m;
}
