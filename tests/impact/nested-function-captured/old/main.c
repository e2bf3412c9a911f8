/* A variable a GNU nested function reads changes outside it: the nested function's
   result changes with it. */
#include <stdio.h>

static int apply(int (*f)(int), int x) { return f(x); }

static int captured(int k) {
    int mul(int v) { return v * k; }
    k = k * 3;
    return apply(mul, 10);
}

int main(int argc, char **argv) {
    (void)argv;
    printf("%d\n", captured(argc));
    return 0;
}
