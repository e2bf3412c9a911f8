#include <stdio.h>

int inc(int x) {
    return x + 1;
}

int apply(int (*f)(int), int x) {
    return f(x);
}

int main(void) {
    int r = apply(inc, 1);
    printf("%d\n", r);
    return 0;
}
