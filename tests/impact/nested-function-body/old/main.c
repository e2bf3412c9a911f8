/* A GNU nested function's body changes: the result of the call it is passed to. */
#include <stdio.h>

static int apply(int (*f)(int), int x) { return f(x); }

static int scaled(int k) {
    int add(int v) { return v + k; }
    return apply(add, 10);
}

int main(int argc, char **argv) {
    (void)argv;
    printf("%d\n", scaled(argc));
    return 0;
}
