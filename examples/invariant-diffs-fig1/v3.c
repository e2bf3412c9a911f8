/* Invariant Diffs (Kallingal Joshy, Le), Figure 1 -- VERSION 3 of 3.
 * Figure 1 is not legible in the source text; this program is reconstructed
 * from the prose of section II (see README.md). Comments give the MVICFG node
 * numbers of Figure 2. */
#include <stdio.h>
#include <stdlib.h>

/* The input: a = foo(...). The paper's queries resolve without entering foo. */
int foo(int argc, char *argv[]) {
    long v = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
    if (v < -1000000)
        v = -1000000;
    if (v > 1000000)
        v = 1000000;
    return (int)v;
}

int main(int argc, char *argv[]) {           /* node 0 */
    int a, b, c, x, y;
    c = 1;                                    /* node 1 */
    a = foo(argc, argv);                      /* node 2 */
    b = c + 2;                                /* node 3 */
    if (a > 0)                                /* node 6 */
        b = b + 1;                            /* node 11 */
    else
        b = 4;                                /* node 12 */
    x = b - 2;                                /* node 13 */
    y = a + x;                                /* node 5 */
    printf("a=%d b=%d x=%d y=%d\n", a, b, x, y); /* node 14 */
    return 0;
}
