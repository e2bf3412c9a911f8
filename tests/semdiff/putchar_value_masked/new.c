#include <stdio.h>

/* Prints x: putchar converts it to unsigned char itself. */
void put(int x) {
    putchar(x);
}
