#include <stdio.h>
#include <stdlib.h>

int g;

static void ratio(int a, int b) {
    g = b ? a / b : 0;
}

int main(int argc, char **argv) {
    (void)argv;
    ratio(10, argc - 1);
    puts("done");
    printf("%d\n", g);
    return 0;
}
