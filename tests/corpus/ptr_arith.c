// Pointers: arithmetic, subtraction, comparison, indexing equivalences, pointers into struct arrays.
#include <stdio.h>
#include <stddef.h>

struct point { int x, y; };

static int sum_range(const int *begin, const int *end) {
    int s = 0;
    while (begin < end) s += *begin++;
    return s;
}

int main(void) {
    int a[10];
    for (int i = 0; i < 10; i++) a[i] = i * i;
    int *p = a;
    int *q = &a[9];
    printf("*p=%d *q=%d q-p=%td\n", *p, *q, q - p);
    printf("p[3]=%d *(p+3)=%d 3[p]=%d\n", p[3], *(p + 3), 3[p]);
    p += 4;
    printf("after += 4: *p=%d p[-2]=%d\n", *p, p[-2]);
    printf("p<q %d p>q %d p==a+4 %d p!=q %d p>=a %d\n", p < q, p > q, p == a + 4, p != q, p >= a);
    printf("sum_range %d %d\n", sum_range(a, a + 10), sum_range(a + 2, a + 5));
    int *end = a + 10;
    int count = 0;
    for (int *it = a; it != end; ++it)
        if (*it % 2) count++;
    printf("odd squares %d\n", count);

    char s[] = "pointer";
    char *c = s;
    while (*c) c++;
    printf("strlen by subtraction %td\n", c - s);
    char *mid = s + 3;
    printf("mid %s, mid[-1] %c\n", mid, mid[-1]);

    struct point pts[4] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
    struct point *pp = pts;
    pp++;
    printf("pp->x %d (pp+1)->y %d pp[2].x %d diff %td\n", pp->x, (pp + 1)->y, pp[2].x,
           &pts[3] - pp);
    int *py = &pts[2].y;
    printf("*py %d py[-1] %d\n", *py, py[-1]);

    double d[5] = {0.5, 1.5, 2.5, 3.5, 4.5};
    double *dp = d + 4;
    printf("double ptr %.1f %td\n", *dp, dp - d);
    long l[3] = {100, 200, 300};
    long *lp = &l[1];
    printf("long ptr %ld %ld\n", lp[-1], lp[1]);
    short sh[4] = {1, 2, 3, 4};
    short *sp = sh + 2;
    *sp-- = 30;
    *sp = 20;
    printf("shorts %d %d %d %d\n", sh[0], sh[1], sh[2], sh[3]);
    const int *cp = a + 5;
    ptrdiff_t diff = cp - (const int *)a;
    printf("const ptr diff %td, past end ok %d\n", diff, a + 10 == end);
    unsigned char bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    unsigned char *bp = bytes + 8;
    int rev = 0;
    while (bp > bytes) rev = rev * 10 + *--bp;
    printf("reverse digits %d\n", rev);
    return 0;
}
