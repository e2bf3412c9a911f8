#include <stdio.h>

static int total;

static void show(int v) { printf("%d\n", v); }

/* Rewritten in the new version without changing what it computes. */
static int mix(int a, int b, int c) {
    int y;
    int r;
    int s = a + b;
    y = s * c;
    r = y + y;
    total += r ^ 0;
    show(r + -1);
    return r ^ 0x0f;
}

int main(int argc, char **argv) {
    int k = mix(argc, 3, 4);
    show(k);
    show(total);
    return 0;
}
