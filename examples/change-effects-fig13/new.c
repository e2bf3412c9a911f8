/* Santelices, Change-Effects Analysis (PhD thesis, 2012), Figure 13 -- E1: E with change ch1.
 * Thesis statement k is marked with a comment on the same line in every version.
 * Inputs x, y range over [1, 10]. "print" is printf. */
#include <stdio.h>
#include <stdlib.h>

void E(int x, int y) {
    if (x > 2)              /* 1  ch1 */
        ++y;                /* 2 */
    else                    /* 3 */
        --y;                /* 4 */
    /* ch2 */               /* 5 */
    if (y > 2)              /* 6 */
        printf("1\n");     /* 7 */
    else                    /* 8 */
        printf("0\n");     /* 9 */
}

/* Not in the thesis: "prog X Y" runs E once; without arguments E runs on all
 * 100 inputs x, y in [1, 10], each output prefixed by the input. */
int main(int argc, char *argv[]) {
    if (argc == 3) {
        long x = strtol(argv[1], NULL, 10), y = strtol(argv[2], NULL, 10);
        if (x < 1 || x > 10 || y < 1 || y > 10) {
            fprintf(stderr, "x and y must be in [1, 10]\n");
            return 2;
        }
        E((int)x, (int)y);
        return 0;
    }
    for (int x = 1; x <= 10; x++)
        for (int y = 1; y <= 10; y++) {
            printf("%d %d ", x, y);
            E(x, y);
        }
    return 0;
}
