// Program: matrix multiply, identity and transpose checks, integer and double matrices, determinant by elimination.
#include <stdio.h>
#include <math.h>

#define N 4

static void matmul(int n, const double a[n][n], const double b[n][n], double c[n][n]) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}

static void print(const char *name, int n, const double m[n][n]) {
    printf("%s:\n", name);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) printf(" %9.3f", m[i][j]);
        putchar('\n');
    }
}

static double det(int n, double m[n][n]) {
    double d = 1;
    for (int col = 0; col < n; col++) {
        int pivot = col;
        for (int r = col + 1; r < n; r++)
            if (fabs(m[r][col]) > fabs(m[pivot][col])) pivot = r;
        if (m[pivot][col] == 0) return 0;
        if (pivot != col) {
            for (int k = 0; k < n; k++) {
                double t = m[col][k]; m[col][k] = m[pivot][k]; m[pivot][k] = t;
            }
            d = -d;
        }
        d *= m[col][col];
        for (int r = col + 1; r < n; r++) {
            double f = m[r][col] / m[col][col];
            for (int k = col; k < n; k++) m[r][k] -= f * m[col][k];
        }
    }
    return d;
}

int main(void) {
    double a[N][N], b[N][N], c[N][N], id[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = i + 2 * j + 1;
            b[i][j] = (i == j) ? 2 : (i - j) * 0.5;
            id[i][j] = i == j;
        }
    matmul(N, (const double (*)[N])a, (const double (*)[N])b, c);
    print("a*b", N, (const double (*)[N])c);
    matmul(N, (const double (*)[N])a, (const double (*)[N])id, c);
    int same = 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) same &= c[i][j] == a[i][j];
    printf("a*I == a: %d\n", same);
    print("b", N, (const double (*)[N])b);
    printf("det(b) = %.6f\n", det(N, b));
    printf("det(a) = %.6f\n", det(N, a));
    long im[3][3] = {{2, 0, 1}, {1, 3, 2}, {1, 1, 1}}, r[3][3] = {{0}};
    for (int p = 0; p < 5; p++) {
        long t[3][3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                t[i][j] = 0;
                for (int k = 0; k < 3; k++) t[i][j] += (p ? r[i][k] : (i == k)) * im[k][j];
            }
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) r[i][j] = t[i][j];
    }
    printf("im^5 row0: %ld %ld %ld, row2: %ld %ld %ld\n", r[0][0], r[0][1], r[0][2], r[2][0],
           r[2][1], r[2][2]);
    return 0;
}
