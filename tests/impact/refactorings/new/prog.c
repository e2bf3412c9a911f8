#include <stdio.h>

/* 000 Fig. 5-7 style refactorings: each function is rewritten in the new version
   without changing what it computes. */

static int area(int w, int h, int border) {
    int width = w + border + border;
    int height = h + 2 * border;
    return width * height;
}

static int sum_to(int n) {
    int i, s = 0;
    for (i = 0; i < n; i++)
        s += i;
    return s;
}

static int classify(int x) {
    int r;
    if (x < 0)
        r = 0;
    else if (x > 100)
        r = 2;
    else
        r = 1;
    return r;
}

static int swap_order(int *a, int *b) {
    int t = *a;
    *a = *b;
    *b = t;
    return t;
}

int main(int argc, char **argv) {
    int a = argc, b = 7;
    (void)argv;
    printf("%d\n", area(argc, 3, 1));
    printf("%d\n", sum_to(argc + 4));
    printf("%d %d %d\n", classify(-argc), classify(argc), classify(argc * 200));
    printf("%d %d %d\n", swap_order(&a, &b), a, b);
    return 0;
}
