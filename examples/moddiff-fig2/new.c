/* Trostanetski, Grumberg, Kroening (SAS 2017), Figure 2 -- NEW version (p2).
 * Paper line N of p2 is file line N + 5; int& x becomes int *x. */
#include <stdio.h>
#include <stdlib.h>

void p(int *x) {
    if (*x < 0) {
        *x = -1;
        return;
    }
    if (*x > 4)
        return;
    while (*x == 2)
        *x = 2;
    *x = 3;
}

/* Not in the paper: reads x from argv[1] (default 0), prints p's result. */
int main(int argc, char *argv[]) {
    int x = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 0;
    printf("p(%d) = ", x);
    fflush(stdout);
    p(&x);
    printf("%d\n", x);
    return 0;
}
