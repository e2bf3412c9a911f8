#include <setjmp.h>

jmp_buf env;

/* Returns x up to 5; past it, jumps back to the setjmp, which then returns 1. */
int clamp(int x) {
    if (setjmp(env))
        return 1;
    if (x > 5)
        longjmp(env, 1);
    return x;
}
