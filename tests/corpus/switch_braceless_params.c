// `switch` bodies that are not compound statements (labels on one statement), and array parameters with qualifiers: [restrict n], [static n], [const n], [__restrict].
#include <stdio.h>

#define ONLY_ONE(x, y) switch (x) case 1: case 2: y += 10
#define OR_DEFAULT(x, y) switch (x) default: y -= 1

static int classify(int x) {
    int y = 0;
    ONLY_ONE(x, y);
    y++;
    switch (x)
    case 3:
        y += 100;
    OR_DEFAULT(x, y);
    switch (x % 2)
    case 0:
        if (x > 2)
            y *= 2;
        else
            y *= 3;
    return y;
}

static long sum(int n, const int a[restrict n]) {
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

static int first_two(const int a[static 2]) { return a[0] * 10 + a[1]; }

static void fill(int n, int out[const n], int v) {
    for (int i = 0; i < n; i++)
        out[i] = v + i;
}

static int count_args(char *const argv[__restrict]) {
    int n = 0;
    while (argv[n])
        n++;
    return n;
}

static int trace(int rows, int m[static __restrict 3][3]) {
    int t = 0;
    for (int i = 0; i < rows; i++)
        t += m[i][i];
    return t;
}

int main(void) {
    for (int x = 0; x < 6; x++)
        printf("classify(%d) = %d\n", x, classify(x));
    int buf[5];
    fill(5, buf, 7);
    printf("sum %ld first_two %d\n", sum(5, buf), first_two(buf + 1));
    char a0[] = "a", a1[] = "b";
    char *args[] = {a0, a1, 0};
    printf("args %d\n", count_args(args));
    int m[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    printf("trace %d\n", trace(3, m));
    return 0;
}
