/* reason: the buggy last assignment sets m = b, which can be larger than a and c, so only return <= b holds; assigning c makes the result at most each of a, b and c. */
int task(int a, int b, int c) {
    int m = a;
    if (b < m)
        m = b;
    if (c < m)
        m = c;
    return m;
}
