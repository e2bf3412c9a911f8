/* A longjmp, which the analysis reads as unknown code that may read and write memory,
   and a string literal, which no defined run writes. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static int level;

/* Raises an error when the level is too high. */
static void check(void) {
    if (level > 2)
        longjmp(env, 1);
}

static int lookup(int i) {
    return "xyz"[i % 3];
}

int main(int argc, char **argv) {
    (void)argv;
    int t = lookup(argc);
    level = argc + 1;
    if (setjmp(env) == 0)
        check();
    printf("%d %d\n", t, level);
    return 0;
}
