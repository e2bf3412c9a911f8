// Postfix ++/-- under a unary operator (`!size--`, `-s++`, `~s++`, `!a[0]++`): the
// postfix operator binds tighter, `!(size--)`, as c-ares' inet_net_pton.c relies on.
#include <stdio.h>

static int countdown(unsigned size) {
    int steps = 0;
    while (!(size == 0 && steps > 0)) {
        if (!size--)
            return -steps;
        steps++;
    }
    return steps;
}

static int negate_then_step(int s) {
    int r = -s++;
    return r * 100 + s;
}

static int complement_then_step(int s) {
    int r = ~s++;
    return r * 100 + s;
}

static int element(int *a) {
    int r = !a[0]++;
    return r * 100 + a[0];
}

static int through_pointer(int *p) {
    int r = !(*p)++;
    return r * 100 + *p;
}

static int two_operators(int s) {
    int r = !-s--;
    return r * 100 + s;
}

int main(void) {
    int a = 0, b = 3;
    printf("%d %d %d\n", countdown(0), countdown(1), countdown(5));
    printf("%d %d %d %d\n", negate_then_step(4), complement_then_step(4), two_operators(0),
           two_operators(7));
    printf("%d %d\n", element(&a), through_pointer(&b));
    printf("%d %d\n", a, b);
    return 0;
}
