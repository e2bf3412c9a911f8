#include <stdio.h>
#include <stdlib.h>

/* Returns unless the message is empty. */
static void fail(const char *msg) {
    fprintf(stderr, "%s\n", msg);
    if (msg[0] == 0)
        exit(1);
}

/* Declared never to return. */
__attribute__((noreturn)) void die(int code);

int check(int x) {
    if (x < 0) {
        fail("negative");
    }
    if (x > 100) {
        die(2);
    }
    return x * 2;
}

int main(int argc, char **argv) {
    (void)argv;
    int v = check(argc);
    printf("%d\n", v);
    return 0;
}

void die(int code) { exit(code); }
