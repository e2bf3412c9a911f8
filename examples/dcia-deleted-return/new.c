#include <stdio.h>

static int seen;

static void visit(int x)
{
    if (x < 0) {
        printf("negative\n");
    }
    seen = seen + 1;
    printf("visit %d\n", x);
}

int main(void)
{
    visit(1);
    visit(-2);
    visit(3);
    printf("%d\n", seen);
    return 0;
}
