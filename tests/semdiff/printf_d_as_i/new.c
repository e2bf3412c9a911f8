#include <stdio.h>

/* Prints x in decimal with %i: the same conversion in output. */
void show(int x) {
    printf("[%5i|%-3li]\n", x, (long)x * 2);
}
