/* A statement the parser cannot read changes (`@` is no C operator): what reads the
   registers it names is impacted. */
#include <stdio.h>

static int parse(int k) {
    int r = 0;
    r = k @ 3;
    return r;
}

int main(int argc, char **argv) {
    (void)argv;
    printf("%d\n", parse(argc));
    return 0;
}
