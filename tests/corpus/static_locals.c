// Static local variables: counters persisting across calls, static arrays, returning pointers to statics, per-function state.
#include <stdio.h>

static int counter(void) {
    static int n;
    return ++n;
}

static int other_counter(void) {
    static int n = 100;
    n += 10;
    return n;
}

static const char *ordinal(int k) {
    static char buf[16];
    const char *suffix = "th";
    if (k % 100 < 11 || k % 100 > 13) {
        if (k % 10 == 1) suffix = "st";
        else if (k % 10 == 2) suffix = "nd";
        else if (k % 10 == 3) suffix = "rd";
    }
    snprintf(buf, sizeof buf, "%d%s", k, suffix);
    return buf;
}

static int fib_next(void) {
    static int a = 0, b = 1;
    int r = a;
    int t = a + b;
    a = b;
    b = t;
    return r;
}

static int *history(int v) {
    static int h[4];
    static int pos = 0;
    h[pos++ % 4] = v;
    return h;
}

static double running_mean(double x) {
    static double sum = 0;
    static int count = 0;
    sum += x;
    return sum / ++count;
}

static int depth(int n) {
    static int max_seen = 0;
    if (n > max_seen) max_seen = n;
    if (n < 5) depth(n + 1);
    return max_seen;
}

int main(void) {
    for (int i = 0; i < 3; i++) printf("counter %d other %d\n", counter(), other_counter());
    printf("counter again %d\n", counter());
    for (int k = 1; k <= 24; k += 5) printf("%s ", ordinal(k));
    printf("%s ", ordinal(112));
    printf("%s\n", ordinal(123));
    const char *first = ordinal(1);
    const char *second = ordinal(2);
    printf("same buffer: %d, content %s\n", first == second, first);
    printf("fib:");
    for (int i = 0; i < 12; i++) printf(" %d", fib_next());
    putchar('\n');
    int *h = NULL;
    for (int v = 1; v <= 6; v++) h = history(v * v);
    printf("history %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    double xs[] = {2, 4, 9, 1};
    for (int i = 0; i < 4; i++) printf("mean %.3f\n", running_mean(xs[i]));
    printf("max depth %d\n", depth(0));
    printf("max depth again %d\n", depth(3));
    for (int i = 0; i < 3; i++) {
        static int loop_static = 5;
        int loop_auto = 5;
        loop_static++;
        loop_auto++;
        printf("loop static %d auto %d\n", loop_static, loop_auto);
    }
    return 0;
}
