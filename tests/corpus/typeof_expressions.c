// GNU typeof of expressions and __auto_type: the type of an unevaluated expression; __auto_type takes its initializer's type after lvalue conversion.
#include <stdint.h>
#include <stdio.h>

#define MAX(a, b) ({ __typeof__(a) a_ = (a); __typeof__(b) b_ = (b); a_ > b_ ? a_ : b_; })
#define SWAP(x, y) do { __typeof__(x) t_ = (x); (x) = (y); (y) = t_; } while (0)

struct pt { int x; long y; };

static int twice(int v) { return 2 * v; }

/* At file scope. */
static int base = 3;
static __typeof__(base + 1L) wide = 5;
__auto_type file_auto = 7;

static long f(struct pt *p, int k) {
    __typeof__(p->y) acc = 0;
    typeof(*p) copy = *p;
    __auto_type q = p;
    __auto_type w = k * 2L;
    typeof(k + 1L) z = k;
    __typeof__(int[3]) arr = {1, 2, 3};
    typeof(&copy) pc = &copy;
    SWAP(copy.x, k);
    acc = MAX(copy.x, k) + q->y + w + z + arr[2] + pc->y;
    printf("sizes %zu %zu %zu %zu\n", sizeof(typeof(acc)), sizeof(w), sizeof(typeof(p->x)),
           sizeof(typeof(*p)));
    return acc;
}

int main(void) {
    struct pt p = {3, 40};
    printf("%ld\n", f(&p, 5));
    printf("%zu %ld %d\n", sizeof wide, wide + base, file_auto);

    /* Not evaluated: `i` keeps its value. */
    int i = 7;
    typeof(i++) j = i;
    __typeof__(i = 100) m = sizeof(typeof(i--));
    printf("%d %d %d\n", i, j, m);

    /* Unsigned char promoted in the expression: typeof(c + 0) is int. */
    unsigned char c = 200;
    typeof(c + 0) big = c + c;
    typeof(c) small = c + c;
    printf("%d %d\n", big, small);

    /* Arrays: typeof keeps the array type, __auto_type decays it to a pointer. */
    int nums[5] = {1, 2, 3, 4, 5};
    typeof(nums) copy;
    for (int n = 0; n < 5; n++)
        copy[n] = nums[4 - n];
    __auto_type first = nums;
    __auto_type fn = twice;
    typeof(twice) *fp = twice;
    printf("%zu %zu %d %d %d %d\n", sizeof(copy), sizeof(first), copy[0], first[1], fn(21),
           fp(4));

    /* A cast to typeof of an expression, and typeof in a for loop. */
    double d = 2.75;
    long asl = (typeof(p.y + 0))d;
    for (__auto_type s = (short)3; s > 0; s--)
        asl += s;
    printf("%ld %d\n", asl, MAX(MAX(1, 9), MAX(4, c)));

    /* gnulib's TYPE_SIGNED and verify_expr: typeof of a type name in casts, and a
       static assertion in a structure's body. */
    int is_signed = (!((__typeof__ (intmax_t)) 0 < (__typeof__ (intmax_t)) -1));
    int is_unsigned = (!((typeof (unsigned long)) 0 < (typeof (unsigned long)) -1));
    int checked = ((void) sizeof (struct { _Static_assert (sizeof (int) == 4, "int"); int d; }), 7);
    printf("%d %d %d %zu\n", is_signed, is_unsigned, checked, sizeof (typeof (char *)));

    /* typeof of array and function type names. */
    typeof(int[4]) quad = {1, 2, 3, 4};
    typeof(int (*)(int)) op = twice;
    typeof(long *[2]) pair = {&asl, &asl};
    typeof(const char *) text = "ok";
    printf("%zu %d %zu %ld %s\n", sizeof quad, op(quad[3]), sizeof pair, *pair[1], text);

    /* Pointer arithmetic through a typeof'd pointer. */
    typeof(&nums[0]) ptr = nums + 1;
    ptr += 2;
    printf("%d\n", *ptr);
    return 0;
}
