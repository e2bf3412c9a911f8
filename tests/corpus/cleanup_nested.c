// Cleanup attributes in a statement expression, in a switch, and a return from nested loops: each variable's function runs once, innermost first.
// RUN:
// RUN: args=a
#include <stdio.h>
static int n;
static void note(int *p) { printf("cleanup %d\n", *p); n++; }
static int pick(int k) {
    int r = ({ int t __attribute__((cleanup(note))) = k * 2; t + 1; });
    switch (k) {
    case 1: {
        int s __attribute__((cleanup(note))) = 10;
        for (int i = 0; i < 3; i++) {
            int u __attribute__((cleanup(note))) = 20 + i;
            if (i == k)
                return r + s + u;
        }
        break;
    }
    default: {
        int d __attribute__((cleanup(note))) = 30;
        if (k > 5)
            break;
        r += d;
    }
    }
    return r;
}
int main(int argc, char **argv) {
    (void)argv;
    printf("%d\n", pick(argc));
    printf("%d\n", pick(7));
    printf("%d\n", pick(3));
    printf("n %d\n", n);
    return 0;
}
