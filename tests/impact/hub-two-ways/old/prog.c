#include <stdio.h>

int a, b;

void set(int x)
{
    a = x;
    b = x;
}

int r1(void) { return a + b; }
int r2(void) { return a - b; }
int r3(void) { return a * b; }

int main(void)
{
    set(1);
    printf("%d %d %d\n", r1(), r2(), r3());
    return 0;
}
