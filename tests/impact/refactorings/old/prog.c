#include <stdio.h>

/* 000 Fig. 5-7 style refactorings: each function is rewritten in the new version
   without changing what it computes. */

static int area(int w, int h, int border) {
    return (w + 2 * border) * (h + 2 * border);
}

static int sum_to(int n) {
    int i = 0, s = 0;
    while (i < n) {
        s += i;
        i++;
    }
    return s;
}

static int classify(int x) {
    int r;
    if (x < 0)
        goto negative;
    r = x > 100 ? 2 : 1;
    goto done;
negative:
    r = 0;
done:
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
