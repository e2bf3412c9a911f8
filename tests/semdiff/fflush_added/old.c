#include <stdio.h>

/* Prints x; stdio writes it out when the buffer is flushed. */
void report(int x) {
    printf("%d\n", x);
}
