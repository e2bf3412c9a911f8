#include <stdio.h>

/* Changes that look like identities and are not. */
static double shift(double d) {
    double r;
    r = d + 0.0;
    return r;
}

static int ratio(int a, int b) {
    int z;
    z = (a / b) * 0;
    return z;
}

int main(int argc, char **argv) {
    (void)argv;
    printf("%g\n", shift(-0.0 * argc));
    printf("%d\n", ratio(argc, argc - 1));
    return 0;
}
