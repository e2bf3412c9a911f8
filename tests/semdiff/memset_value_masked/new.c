#include <string.h>

/* Fills n bytes with v: memset converts it to unsigned char itself. */
void fill(char *a, int v, unsigned long n) {
    memset(a, v, n);
}
