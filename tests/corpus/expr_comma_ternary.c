// Expressions: the comma operator and ?: (nested, as lvalue-free values, with mixed types and side effects).
#include <stdio.h>

#pragma GCC diagnostic ignored "-Wsign-compare"

static int calls = 0;
static int f(int v) {
    calls++;
    return v;
}

int main(void) {
    int a, b;
    a = (b = 3, b + 4);
    printf("comma: a=%d b=%d\n", a, b);
    int i, j;
    for (i = 0, j = 10; i < j; i++, j--)
        ;
    printf("i=%d j=%d\n", i, j);
    int x = (f(1), f(2), f(3));
    printf("x=%d calls=%d\n", x, calls);

    for (int n = -2; n <= 2; n++) {
        const char *s = n < 0 ? "neg" : n == 0 ? "zero" : "pos";
        printf("%d:%s ", n, s);
    }
    putchar('\n');

    calls = 0;
    int r = 1 ? f(10) : f(20);
    printf("r=%d calls=%d\n", r, calls);
    r = 0 ? f(10) : f(20);
    printf("r=%d calls=%d\n", r, calls);

    double d = 1 ? 1 : 2.5;
    printf("ternary promotes: %.1f\n", d);
    unsigned u = 1;
    int neg = -1;
    long cmp = 1 ? neg : u;
    printf("ternary unsigned: %ld\n", cmp);

    int arr[3] = {0, 0, 0};
    int k = 1;
    arr[k > 0 ? 2 : 0] = 7;
    *(k ? &arr[0] : &arr[1]) = 9;
    printf("%d %d %d\n", arr[0], arr[1], arr[2]);

    int m = 5, n = 9;
    int mx = m > n ? m : n;
    int mn = m < n ? m : n;
    printf("max %d min %d\n", mx, mn);
    int abs_val = (m - n) < 0 ? -(m - n) : (m - n);
    printf("abs %d\n", abs_val);

    int t = 0;
    t = t ? t : (t = 4, t * 2);
    printf("t=%d\n", t);
    const char *plural = calls == 1 ? "" : "s";
    printf("%d call%s\n", calls, plural);
    int z = (a++, b++, a + b);
    printf("z=%d\n", z);
    return 0;
}
