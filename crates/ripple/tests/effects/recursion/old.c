/* A recursive call whose arguments read both parameters of the caller: monitoring must
 * not repeat a callee's parameter sources at every level (they would double). */
#include <stdio.h>
#include <stdlib.h>

static int depth(int n, int k)
{
    if (n == 0)
        return k;
    return depth(n - 1, k + 1);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    printf("%d\n", depth(n, 0));
    return 0;
}
