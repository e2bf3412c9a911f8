// C11 keywords the parser's grammar lacks: `_Thread_local` storage and the `default`
// association of `_Generic`, nested and inside macros, next to the GNU `__thread`.
// RUN:
// RUN: args=a bb ccc
#include <stdio.h>

static _Thread_local int calls;
__thread long total;
_Thread_local static const char *last = "none";

#define KIND(x) _Generic((x), int: 1, double: 2, char *: 3, default: 0)
#define NESTED(x) _Generic((x), default: _Generic((x) + 0, int: 10, default: 20), long: 30)
#define NAME(x) _Generic((x), float: "float", default: "default: other")

static int classify(int a, const char *s) {
    _Thread_local static int seen;
    calls++;
    seen += a;
    total += seen;
    last = s;
    char c = (char)a;
    switch (a) {
    default:
        break;
    }
    return KIND(a) + KIND(1.0) * 10 + KIND(c) * 100 + KIND((char *)s) * 1000 +
           NESTED(c) + NESTED(2L) + NESTED(1.5) * 2;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        printf("%d\n", classify(i, argv[i]));
    printf("%d %ld %s %s %s\n", calls, total, last, NAME(1.0f), NAME(1));
    return 0;
}
