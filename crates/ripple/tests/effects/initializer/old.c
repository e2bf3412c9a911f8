/* A changed statement that computes the same expression of a global whose initial
   value changed too, and whose result is only printed. */
#include <stdio.h>
#include <stdlib.h>

static int base = 10;

int main(int argc, char **argv) {
    int x = argc > 1 ? atoi(argv[1]) : 0;
    int r = x - x + base;
    int s = r * 2;
    printf("%d\n", s);
    return 0;
}
