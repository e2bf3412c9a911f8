/* Matching fixture: renamed function -- OLD version.
 * Polynomial helpers; in new.c sum_squares is renamed sum_of_squares. */
#include <stdio.h>
#include <stdlib.h>

static long sum_squares(int n) {
    long total = 0;
    for (int i = 1; i <= n; i++)
        total += (long)i * i;
    return total;
}

static long sum_cubes(int n) {
    long total = 0;
    for (int i = 1; i <= n; i++)
        total += (long)i * i * i;
    return total;
}

static void report(int n) {
    long sq = sum_squares(n);
    long cu = sum_cubes(n);
    printf("n=%d squares=%ld cubes=%ld square_of_sum=%ld\n",
           n, sq, cu, (long)n * (n + 1) / 2 * ((long)n * (n + 1) / 2));
}

int main(int argc, char *argv[]) {
    int n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 10;
    if (n < 0 || n > 10000)
        n = 10;
    report(n);
    if (sum_squares(n) > 100)
        printf("more than 100\n");
    return 0;
}
