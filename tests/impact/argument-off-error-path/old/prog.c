#include <stdio.h>
#include <stdlib.h>

int g;

static void must(int ok) {
    if (!ok)
        exit(1);
}

static int compute(int a, int b) {
    must(b != 0);
    return a / b;
}

int main(int argc, char **argv) {
    (void)argv;
    int x = compute(argc, 2);
    g = 5;
    printf("%d\n", g);
    printf("%d\n", x);
    return 0;
}
