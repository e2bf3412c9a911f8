#include <stdio.h>
#include <stdlib.h>

/* The slot a ratio (in thousandths) picks among n; the change is here. */
static int pick(int n, int ratio) {
    int i = n * ratio / 1000;
    if (i > n)
        i = n - 1;
    return i;
}

/* Counts down from i. */
static int walk(int i) {
    int steps = 0;
    while (i > 0) {
        steps++;
        i--;
    }
    return steps;
}

/* Reports a slot. */
static int report(int i) {
    if (i < 0)
        return -1;
    return i;
}

/* Calls pick, and passes what it picks to walk and report, which do not call pick nor
   each other. */
int run(int n, int ratio) {
    int s = walk(pick(n, ratio));
    if (ratio > 0 && ratio < 1000 && n > 0 && n < 1000)
        s += report(pick(n, ratio));
    return s;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4;
    int r = argc > 2 ? atoi(argv[2]) : 500;
    printf("%d\n", run(n, r));
    return 0;
}
