// sizeof of a parenthesised object followed by a postfix operator: `sizeof (t)[0]` is the
// size of t[0] (the classic NELEM macro), likewise `->`, `.` and a call.
#include <stdio.h>

#define NELEM(a) (sizeof (a) / sizeof (a)[0])

struct P {
    int a;
    double b;
} ps[3], *pp = ps;
static int t[] = {1, 2, 3};
static char names[][8] = {"one", "two", "three", "four"};

static long f(int x) {
    return x;
}

int main(void) {
    printf("%d %d\n", (int)NELEM(t), (int)NELEM(names));
    printf("%d %d %d\n", (int)sizeof (pp)->b, (int)sizeof (ps)[1].a, (int)sizeof (f)(2));
    printf("%d %d\n", (int)sizeof (t), (int)sizeof (names)[1]);
    return (int)NELEM(ps);
}
