/* Trostanetski, Grumberg, Kroening (SAS 2017), Figure 3 -- NEW version (f2).
 * f: paper line N is file line N + 6; abs: paper line M is file line M + 15.
 * abs is named abs_ref (C's abs is int abs(int)); int& x becomes int *x. */
#include <stdio.h>
#include <stdlib.h>
void abs_ref(int *x);
void f(int *x) {
    if (*x == 5) {
        abs_ref(x);
        if (*x == 0) {
            *x = 1;
            return;
        }
    }
}
void abs_ref(int *x) {
    if (*x >= 1)
        return;
    else
        *x = -*x;
}

/* Not in the paper: reads x from argv[1] (default 5), prints f's result. */
int main(int argc, char *argv[]) {
    int x = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 5;
    printf("f(%d) = ", x);
    f(&x);
    printf("%d\n", x);
    return 0;
}
