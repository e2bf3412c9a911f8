// Exit codes: abort() terminates with SIGABRT (exit code 134); output flushed beforehand is kept.
// RUN: args=5
// RUN: args=12
#include <stdio.h>
#include <stdlib.h>

static int checked_div(int a, int b) {
    if (b == 0) {
        fprintf(stderr, "division by zero\n");
        fflush(stdout);
        abort();
    }
    return a / b;
}

int main(int argc, char **argv) {
    int limit = argc > 1 ? atoi(argv[1]) : 5;
    int acc = 1000;
    for (int i = limit; i >= limit - 8; i--) {
        acc = acc + checked_div(100, i - 3);
        printf("i=%d acc=%d\n", i, acc);
    }
    printf("finished normally with %d\n", acc);
    return 0;
}
