#include <string.h>

/* Fills n bytes with the low byte of v, masked by hand. */
void fill(char *a, int v, unsigned long n) {
    memset(a, v & 0xff, n);
}
