// Statements: while, do-while, for with every part optional, nested loops, empty bodies.
#include <stdio.h>

int main(void) {
    int i = 0, sum = 0;
    while (i < 10) {
        sum += i;
        i++;
    }
    printf("while sum %d i %d\n", sum, i);

    int n = 0;
    do {
        n++;
    } while (n < 0);
    printf("do-while runs once: %d\n", n);

    int k = 5;
    do printf("k=%d ", k); while (--k);
    putchar('\n');

    for (int a = 0, b = 10; a < b; a += 2, b -= 1)
        printf("(%d,%d)", a, b);
    putchar('\n');

    int j = 0;
    for (; j < 3;) j++;
    printf("for without init/step: %d\n", j);

    int count = 0;
    for (;;) {
        if (++count == 7) break;
    }
    printf("for(;;) broke at %d\n", count);

    int m;
    for (m = 100; m > 1; m /= 3)
        ;
    printf("empty body result %d\n", m);

    for (int r = 1; r <= 4; r++) {
        for (int c = 1; c <= r; c++)
            printf("%3d", r * c);
        putchar('\n');
    }

    int total = 0;
    int x = 0;
    while (x < 5) {
        int y = x;
        do {
            for (int z = 0; z < y; z++)
                total += z;
            y--;
        } while (y > 0);
        x++;
    }
    printf("nested total %d\n", total);

    unsigned u = 3;
    while (u--)
        printf("u=%u ", u);
    printf("after: %u\n", u);

    long p = 1;
    int steps;
    for (steps = 0; p < 1000000L; steps++)
        p *= 7;
    printf("7^%d = %ld\n", steps, p);
    return 0;
}
