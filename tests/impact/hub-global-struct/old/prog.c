#include <stdio.h>

struct ctx { int mode; int count; } ctx;

static int a(void) { return ctx.mode + 1; }
static int b(void) { return ctx.mode * 2; }
static int c(void) { return ctx.count - 3; }

int main(int argc, char **argv) {
    (void)argv;
    ctx.mode = argc;
    ctx.count = 7;
    int x = a();
    int y = b();
    int z = c();
    printf("%d %d\n", x, y);
    printf("%d\n", z);
    return 0;
}
