/* buggy: determinant of the system a1 x + b1 y = c1, a2 x + b2 y = c2 pairs the wrong coefficients */
int task(int a1, int b1, int a2, int b2) {
    int det = a1 * b1 - a2 * b2;
    return det;
}
