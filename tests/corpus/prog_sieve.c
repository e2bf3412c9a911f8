// Program: sieve of Eratosthenes with a byte array and a bit array, prime counting, twin primes and factorization.
// RUN:
// RUN: args=1000
// RUN: args=2
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int count_with_bits(int n) {
    unsigned *bits = calloc((size_t)n / 32 + 1, sizeof *bits);
    int count = 0;
    for (int i = 2; i <= n; i++) {
        if (bits[i / 32] & (1u << (i % 32))) continue;
        count++;
        for (long j = (long)i * i; j <= n; j += i) bits[j / 32] |= 1u << (j % 32);
    }
    free(bits);
    return count;
}

static void factor(int n) {
    printf("%d =", n);
    const char *sep = " ";
    for (int p = 2; (long)p * p <= n; p++) {
        while (n % p == 0) {
            printf("%s%d", sep, p);
            sep = " * ";
            n /= p;
        }
    }
    if (n > 1) printf("%s%d", sep, n);
    putchar('\n');
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100;
    char *composite = malloc((size_t)n + 1);
    memset(composite, 0, (size_t)n + 1);
    for (int i = 2; (long)i * i <= n; i++)
        if (!composite[i])
            for (int j = i * i; j <= n; j += i) composite[j] = 1;
    int count = 0, twins = 0, last = 0, gap = 0;
    printf("primes up to %d:", n);
    for (int i = 2; i <= n; i++) {
        if (composite[i]) continue;
        count++;
        if (count <= 25) printf(" %d", i);
        if (last && i - last == 2) twins++;
        if (last && i - last > gap) gap = i - last;
        last = i;
    }
    printf("%s\ncount %d (bits: %d) twins %d max gap %d largest %d\n", count > 25 ? " ..." : "",
           count, count_with_bits(n), twins, gap, last);
    free(composite);
    int samples[] = {360, 97, 1001, 65536, 999983, 123456789};
    for (int i = 0; i < 6; i++) factor(samples[i]);
    return 0;
}
