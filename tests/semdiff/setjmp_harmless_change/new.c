#include <setjmp.h>

jmp_buf env;

/* The same test written x >= 6, and the setjmp result compared with 0. */
int clamp(int x) {
    if (setjmp(env) != 0)
        return 1;
    if (x >= 6)
        longjmp(env, 1);
    return x;
}
