#include <stdio.h>
#include <stdlib.h>

static int negatives;

static int scale(int x) {
    int r = 0;
    if (x < 0) {
        negatives++;
        goto ret1;
    }
    r = x * 2;
    r = r + 1;
ret1:
    return r;
}

static int unrelated(int y) {
    return y - 1;
}

int main(int argc, char **argv) {
    int x = argc > 1 ? atoi(argv[1]) : -3;
    int s = scale(x);
    printf("%d %d %d\n", s, negatives, unrelated(x));
    return 0;
}
