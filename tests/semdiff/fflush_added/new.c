#include <stdio.h>

/* Prints x and flushes stdout at once: the same bytes, written earlier. */
void report(int x) {
    printf("%d\n", x);
    fflush(stdout);
}
