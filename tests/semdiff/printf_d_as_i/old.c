#include <stdio.h>

/* Prints x in decimal with %d. */
void show(int x) {
    printf("[%5d|%-3ld]\n", x, (long)x * 2);
}
