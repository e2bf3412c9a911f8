/* reason: the determinant of the system a1 x + b1 y = c1, a2 x + b2 y = c2 is a1 * b2 - a2 * b1; the buggy version multiplies each equation's own coefficients. */
int task(int a1, int b1, int a2, int b2) {
    int det = a1 * b2 - a2 * b1;
    return det;
}
