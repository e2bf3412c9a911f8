// Statements: if/else-if chains, nested ifs, dangling else, conditions of every scalar kind.
#include <stdio.h>

static const char *classify(int n) {
    if (n < 0)
        return "negative";
    else if (n == 0)
        return "zero";
    else if (n < 10)
        return "small";
    else if (n < 100)
        return "medium";
    else
        return "large";
}

static int grade(int score) {
    int g;
    if (score >= 90) { g = 'A'; }
    else if (score >= 80) { g = 'B'; }
    else if (score >= 70) { g = 'C'; }
    else { g = 'F'; }
    return g;
}

#pragma GCC diagnostic ignored "-Wdangling-else"
static int dangling(int a, int b) {
    int r = 0;
    if (a)
        if (b)
            r = 1;
        else
            r = 2;
    return r;
}

int main(void) {
    int values[] = {-5, 0, 7, 42, 1000};
    for (int i = 0; i < 5; i++)
        printf("%d is %s\n", values[i], classify(values[i]));
    for (int s = 55; s <= 100; s += 15)
        printf("score %d -> %c\n", s, grade(s));
    printf("dangling: %d %d %d %d\n", dangling(0, 0), dangling(0, 1), dangling(1, 0), dangling(1, 1));

    double d = 0.0;
    if (d) puts("double 0.0 true"); else puts("double 0.0 false");
    d = -0.5;
    if (d) puts("double -0.5 true"); else puts("double -0.5 false");
    const char *p = 0;
    if (!p) puts("null pointer is false");
    p = "x";
    if (p) puts("non-null pointer is true");
    unsigned char c = 256 - 1;
    if (c == 255) puts("uchar 255");
    if (c > 0 && c != values[0]) { if (c & 1) puts("odd"); } else puts("unreachable");

    int x = 3, y = 4;
    if (x > y) { puts("x > y"); }
    else if (x == y) { puts("x == y"); }
    else {
        if (y - x == 1) puts("y is x + 1");
        if ((x = y)) printf("assignment in condition, x=%d\n", x);
    }
    return 0;
}
