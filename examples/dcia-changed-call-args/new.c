#include <stdio.h>

static int calls;

static void tick(void)
{
    calls = calls + 1;
}

static int scale(int x)
{
    tick();
    return x * 2;
}

int main(void)
{
    int a = scale(4);
    printf("%d %d\n", a, calls);
    return 0;
}
