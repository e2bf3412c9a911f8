// The order in which a call's arguments are evaluated: unspecified in C, last to first
// in gcc on x86-64. Arguments with side effects, and values read next to them.
// RUN:
#include <stdio.h>

static int x;
static int counter;

static int next(void) { return ++counter; }
static int bump(void) { x += 10; return 1; }
static int pair(int a, int b) { return a * 100 + b; }
static int three(int a, int b, int c) { return a * 10000 + b * 100 + c; }

int main(void) {
    x = 5;
    printf("%d\n", pair(next(), next()));
    printf("%d\n", pair(bump(), x));
    printf("%d %d\n", bump(), x);
    printf("%d\n", three(next(), x, next()));
    int i = 0;
    printf("%d\n", pair(i, i += 3));
    return 0;
}
