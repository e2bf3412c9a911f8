#include <stdio.h>
#include <stdlib.h>

static int helper(int v) {
    int t = v;
    int *p = &t;
    return *p + 1;
}

int main(int argc, char **argv) {
    int x = argc > 1 ? atoi(argv[1]) : 0;
    int a = x;
    int *buf = malloc(4 * sizeof(int));
    if (!buf)
        return 1;
    buf[0] = a;
    int b = 2;
    buf[1] = b;
    printf("%d\n", buf[0] + buf[1]);
    free(buf);
    return helper(0) - 1;
}
