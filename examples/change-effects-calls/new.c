#include <stdio.h>
#include <stdlib.h>

/* Doubles its argument; the change is in its caller. */
static int scale(int v) {
    return v * 2;
}

int classify(int x) {
    int a = x + 2;
    int r = scale(a);
    if (r > 10)
        return 1;
    return 0;
}

int main(int argc, char **argv) {
    int x = argc > 1 ? atoi(argv[1]) : 0;
    printf("%d\n", classify(x));
    return 0;
}
