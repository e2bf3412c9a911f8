#include <stdio.h>
#include <stdlib.h>

static int odd_seen;

/* Doubles its argument; the change is in its caller. */
static int scale(int v) {
    return v * 2;
}

/* Counts the odd values it is given. */
static void note(int v) {
    if (v % 2)
        odd_seen++;
}

int classify(int x) {
    if (x >= 3)
        note(x);
    int a = x + 2;
    int r = scale(a);
    if (r > 10)
        return 1;
    return 0;
}

int main(int argc, char **argv) {
    int x = argc > 1 ? atoi(argv[1]) : 0;
    int c = classify(x);
    printf("%d %d\n", c, odd_seen);
    return 0;
}
