// Arrays: 1-D and 2-D arrays, initializers with omitted sizes and zero fill, passing to functions, sizeof.
#include <stdio.h>

#define ROWS 3
#define COLS 4

static int sum(const int *v, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}

static void fill(int m[][COLS], int rows) {
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < COLS; c++) m[r][c] = r * COLS + c;
}

static int trace(int n, int m[n][n]) {
    int t = 0;
    for (int i = 0; i < n; i++) t += m[i][i];
    return t;
}

static void transpose(int src[ROWS][COLS], int dst[COLS][ROWS]) {
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) dst[c][r] = src[r][c];
}

int main(void) {
    int a[] = {5, 3, 8, 1};
    int z[6] = {1, 2};
    printf("sizeof a %zu elems %zu\n", sizeof a, sizeof a / sizeof a[0]);
    printf("zero fill:");
    for (int i = 0; i < 6; i++) printf(" %d", z[i]);
    printf("\nsum %d %d\n", sum(a, 4), sum(z, 6));

    int m[ROWS][COLS];
    fill(m, ROWS);
    printf("sizeof m %zu row %zu\n", sizeof m, sizeof m[0]);
    for (int r = 0; r < ROWS; r++) {
        for (int c = 0; c < COLS; c++) printf("%3d", m[r][c]);
        putchar('\n');
    }
    int t[COLS][ROWS];
    transpose(m, t);
    for (int r = 0; r < COLS; r++) {
        for (int c = 0; c < ROWS; c++) printf("%3d", t[r][c]);
        putchar('\n');
    }
    int sq[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    printf("trace %d\n", trace(3, sq));
    int flat = 0;
    int *fp = &sq[0][0];
    for (int i = 0; i < 9; i++) flat = flat * 2 + fp[i] % 2;
    printf("flattened parity bits %d\n", flat);
    int part[2][3] = {{1}, {4, 5}};
    printf("partial rows %d %d %d %d\n", part[0][0], part[0][2], part[1][1], part[1][2]);
    char grid[3][5] = {"abcd", "efgh", "ij"};
    for (int r = 0; r < 3; r++) printf("row %d: %s\n", r, grid[r]);
    int n = 5;
    int vla[n];
    for (int i = 0; i < n; i++) vla[i] = i * 3;
    printf("vla sizeof %zu sum %d\n", sizeof vla, sum(vla, n));
    int (*rowp)[COLS] = m;
    rowp++;
    printf("row pointer %d %d\n", (*rowp)[0], rowp[1][3]);
    int cube[2][2][2] = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}};
    printf("cube %d %d sizeof %zu\n", cube[1][0][1], cube[0][1][1], sizeof cube[1]);
    return 0;
}
