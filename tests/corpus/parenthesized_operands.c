// Parenthesized variables before binary operators the parser may take for casts: `&&`, `-`, `*`, `&`, `+`.
#include <stdio.h>

#pragma GCC diagnostic ignored "-Wparentheses"

#define in_range(x) (0 < (x) && (x) < 10)
#define is_digit(c) ('0' <= (c) && (c) <= '9')

static int f(int n, int a, int b, int p) {
    int r = 0;
    if (in_range(n))
        r += 1;
    if (p || 0 < (n) && (n) < 5)
        r += 10;
    r += a * (n) - b;
    r += (n) - a * b;
    r += (a) + (b) * 2;
    r += (n) & 3;
    r += a < (n) && b;
    r += 100 * (0 < (n) && (n) < 3 && p);
    return r;
}

int main(void) {
    int values[] = {-3, 0, 1, 2, 4, 5, 9, 10, 42};
    unsigned i;
    for (i = 0; i < sizeof values / sizeof values[0]; i++) {
        int n = values[i];
        printf("%d: %d %d %d\n", n, f(n, 2, 3, 0), f(n, -1, 7, 1), is_digit('0' + n));
    }
    return 0;
}
