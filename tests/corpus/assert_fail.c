// assert: passing assertions are silent; a failing one prints to stderr and aborts (exit code 134).
// RUN: args=4
// RUN: args=9
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

static int isqrt(int n) {
    assert(n >= 0);
    int r = 0;
    while ((r + 1) * (r + 1) <= n) r++;
    assert(r * r <= n && (r + 1) * (r + 1) > n);
    return r;
}

static int table[8];

static void store(int idx, int v) {
    assert(idx >= 0 && idx < 8 && "index in range");
    table[idx] = v;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4;
    for (int i = 0; i < 50; i += 7) printf("isqrt(%d) = %d\n", i, isqrt(i));
    for (int i = 0; i < n; i++) {
        printf("store %d\n", i);
        fflush(stdout);
        store(i, i * i);
    }
    int sum = 0;
    for (int i = 0; i < 8; i++) sum += table[i];
    printf("sum %d\n", sum);
    assert(sum >= 0);
    return 0;
}
