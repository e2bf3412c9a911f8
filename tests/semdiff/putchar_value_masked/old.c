#include <stdio.h>

/* Prints the low byte of x, masked by hand. */
void put(int x) {
    putchar(x & 0xff);
}
