/* Santelices, Change-Effects Analysis (PhD thesis, 2012), Figure 4 -- OLD version (prog).
 * Translated from the thesis pseudo-code; the trailing comments give the
 * thesis's statement numbers (1-8), which sit on the same lines in both files.
 * m is indexed 1..4 as in the thesis (m[0] is unused). "print" is printf. */
#include <stdio.h>
#include <stdlib.h>

void prog(int n, int m[]) {
    int r, i, a;
    r = n;                        /* 1 */
    for (i = 1; i <= 4; i++) {    /* 2 */
        if (m[i] > 0)             /* 3 */
            a = 4;                /* 4 */
        else
            a = 2;                /* 5 */
        r += a;                   /* 6 */
    }
    printf("%d\n", r > 0);       /* 7 */
    /* nothing */                 /* 8 */
}

/* Not in the thesis: prog N M1 M2 M3 M4 (default: the thesis input n=5,
 * m=[1,-1,0,3]). Values are limited to [-1000000, 1000000] so that r cannot
 * overflow. */
int main(int argc, char *argv[]) {
    int n = 5, m[5] = {0, 1, -1, 0, 3};
    if (argc == 6) {
        long v[5];
        for (int k = 0; k < 5; k++) {
            v[k] = strtol(argv[k + 1], NULL, 10);
            if (v[k] < -1000000 || v[k] > 1000000) {
                fprintf(stderr, "values must be in [-1000000, 1000000]\n");
                return 2;
            }
        }
        n = (int)v[0];
        for (int k = 1; k < 5; k++)
            m[k] = (int)v[k];
    }
    prog(n, m);
    return 0;
}
