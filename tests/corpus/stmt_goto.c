// Statements: goto forward and backward, labels, leaving nested loops, cleanup chains.
#include <stdio.h>
#include <stdlib.h>

static int find(int grid[4][4], int target, int *row, int *col) {
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            if (grid[r][c] == target) {
                *row = r;
                *col = c;
                goto found;
            }
    return 0;
found:
    return 1;
}

static int setup(int fail_at) {
    int status = 0;
    char *a = NULL, *b = NULL, *c = NULL;
    a = malloc(8);
    if (fail_at == 1) { status = 1; goto out_a; }
    b = malloc(8);
    if (fail_at == 2) { status = 2; goto out_b; }
    c = malloc(8);
    if (fail_at == 3) { status = 3; goto out_c; }
    printf("all allocated\n");
out_c:
    free(c);
out_b:
    free(b);
out_a:
    free(a);
    printf("setup(%d) -> %d\n", fail_at, status);
    return status;
}

int main(void) {
    int i = 0;
loop:
    printf("i=%d\n", i);
    i += 3;
    if (i < 10) goto loop;

    int grid[4][4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            grid[r][c] = r * 10 + c;
    int row = -1, col = -1;
    if (find(grid, 21, &row, &col)) printf("21 at %d,%d\n", row, col);
    if (!find(grid, 99, &row, &col)) printf("99 not found\n");

    for (int f = 0; f <= 3; f++) setup(f);

    int n = 27, steps = 0;
again:
    if (n == 1) goto done;
    n = (n % 2) ? 3 * n + 1 : n / 2;
    steps++;
    goto again;
done:
    printf("collatz(27) steps %d\n", steps);

    goto skip;
    printf("never printed\n");
skip:;
    int j = 0;
    {
    inner:
        j++;
        if (j < 4) goto inner;
    }
    printf("j=%d\n", j);
    return 0;
}
