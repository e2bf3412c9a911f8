#include <stdio.h>

static int total;

static void show(int v) { printf("%d\n", v); }

/* Rewritten in the new version without changing what it computes. */
static int mix(int a, int b, int c) {
    int y;
    int r;
    y = (a + b) * c;
    r = y * 2;
    total = total + r;
    show(r - 1);
    return r ^ 0x0f;
}

int main(int argc, char **argv) {
    int k = mix(argc, 3, 4);
    show(k);
    show(total);
    return 0;
}
