// Command-line arguments: argc/argv iteration, atoi/atol/strtol parsing, options, exit code from arguments.
// RUN:
// RUN: args=3 4 5
// RUN: args=-v 10 -20 abc 7x
// RUN: args=--sum 1 2 3 4 5 6 7 8 9 10
// RUN: args="with space" -x
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    printf("argc %d\n", argc);
    int verbose = 0, sum_mode = 0;
    long total = 0, product = 1;
    int numbers = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-v") == 0) {
            verbose = 1;
            continue;
        }
        if (strncmp(a, "--", 2) == 0) {
            sum_mode = strcmp(a + 2, "sum") == 0;
            printf("long option %s\n", a + 2);
            continue;
        }
        char *end;
        long v = strtol(a, &end, 10);
        if (end == a) {
            printf("arg %d '%s' (len %zu) is not a number, atoi gives %d\n", i, a, strlen(a), atoi(a));
            continue;
        }
        if (*end) printf("arg %d '%s' has trailing '%s'\n", i, a, end);
        numbers++;
        total += v;
        product *= v;
        if (verbose) printf("  parsed %ld (atoi %d, atol %ld)\n", v, atoi(a), atol(a));
    }
    printf("numbers %d total %ld product %ld\n", numbers, total, product);
    if (sum_mode) printf("sum mode average %.2f\n", numbers ? (double)total / numbers : 0.0);
    printf("argv[argc] is NULL: %d\n", argv[argc] == NULL);
    return numbers > 0 ? (int)(total & 0x7F) : 9;
}
