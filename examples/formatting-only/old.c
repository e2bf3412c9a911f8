/* Matching fixture: formatting-only change -- OLD version.
 * Greatest common divisor and a small table; new.c has the same tokens. */
#include <stdio.h>
#include <stdlib.h>

static int gcd(int a, int b) {
    while (b != 0) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int lcm(int a, int b) {
    return a / gcd(a, b) * b;
}

int main(int argc, char *argv[]) {
    int n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 12;
    if (n < 1 || n > 1000)
        n = 12;
    for (int i = 1; i <= 6; i++) {
        printf("gcd(%d,%d)=%d lcm(%d,%d)=%d\n", n, i, gcd(n, i), n, i, lcm(n, i));
    }
    return 0;
}
