/* A changed statement that computes the same expression of a global whose initial
   value changed too, and whose result is only printed. */
#include <stdio.h>
#include <stdlib.h>

static int base = 11;

int main(int argc, char **argv) {
    int x = argc > 1 ? atoi(argv[1]) : 0;
    int r = base + x - x;
    int s = r * 2;
    printf("%d\n", s);
    return 0;
}
