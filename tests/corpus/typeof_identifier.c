// GNU typeof of a variable in statement-expression macros (MAX, SWAP) and declarations.
#include <stdio.h>

#define MAX(a, b) ({ __typeof__ (a) _a = (a); __typeof__ (b) _b = (b); _a > _b ? _a : _b; })
#define SWAP(x, y) do { typeof (x) _t = (x); (x) = (y); (y) = _t; } while (0)

struct point { int x, y; };

static long widest(long big, int small)
{
    return MAX(big, small);
}

int main(void)
{
    long big = 5000000000L;
    int small = 3, other = -7;
    double d = 2.5, e = 1.25;
    struct point p = { 1, 2 }, q = { 3, 4 };
    __typeof__ (p) r = p;
    typeof (d) half = d / 2;

    printf("%ld %d %.2f\n", widest(big, small), MAX(small, other), MAX(d, e));
    SWAP(small, other);
    SWAP(p, q);
    printf("%d %d | %d %d %d %d | %d %d | %.3f\n", small, other, p.x, p.y, q.x, q.y,
           r.x, r.y, half);
    printf("%zu %zu\n", sizeof (__typeof__ (big)), sizeof (typeof (p)));
    return 0;
}
