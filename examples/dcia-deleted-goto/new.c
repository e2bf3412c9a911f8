#include <stdio.h>
#include <stdlib.h>

static int total;

static int scan(int n)
{
    int i, hits = 0;
    for (i = 0; i < n; i++) {
        if (i % 3 == 2)
            ;
        hits = hits + i;
        total = total + 1;
    }
    hits = hits * 2;
ret1:
    return hits;
}

static void report(void)
{
    printf("done\n");
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5;
    int r = scan(n);
    printf("%d %d\n", r, total);
    report();
    return 0;
}
