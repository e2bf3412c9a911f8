// Function pointers: dispatch tables, callbacks, function pointers in structs, returning function pointers.
#include <stdio.h>
#include <string.h>

typedef int (*op_fn)(int, int);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int maxi(int a, int b) { return a > b ? a : b; }

struct op {
    const char *name;
    op_fn fn;
    int identity;
};

static const struct op ops[] = {
    {"add", add, 0},
    {"sub", sub, 0},
    {"mul", mul, 1},
    {"max", maxi, -1000},
};

static int fold(const int *v, int n, op_fn f, int init) {
    int acc = init;
    for (int i = 0; i < n; i++) acc = f(acc, v[i]);
    return acc;
}

static void for_each(int *v, int n, void (*cb)(int *, void *), void *ctx) {
    for (int i = 0; i < n; i++) cb(&v[i], ctx);
}

static void scale_cb(int *x, void *ctx) { *x *= *(int *)ctx; }
static void sum_cb(int *x, void *ctx) { *(long *)ctx += *x; }

static op_fn lookup(const char *name) {
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, name) == 0) return ops[i].fn;
    return NULL;
}

static int (*pick(int which))(int, int) { return which ? mul : add; }

static int apply_twice(int (*f)(int), int x) { return f(f(x)); }
static int square(int x) { return x * x; }
static int negate(int x) { return -x; }

int main(void) {
    int v[] = {3, 1, 4, 1, 5};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        printf("%s: %d\n", ops[i].name, fold(v, 5, ops[i].fn, ops[i].identity));
    int factor = 3;
    for_each(v, 5, scale_cb, &factor);
    long total = 0;
    for_each(v, 5, sum_cb, &total);
    printf("scaled sum %ld\n", total);
    op_fn f = lookup("mul");
    printf("lookup mul %d, lookup nope %d\n", f(6, 7), lookup("nope") == NULL);
    printf("pick %d %d\n", pick(0)(5, 6), pick(1)(5, 6));
    printf("apply_twice %d %d\n", apply_twice(square, 3), apply_twice(negate, 9));
    int (*fp)(int) = &square;
    printf("explicit deref %d %d\n", (*fp)(12), fp(12));
    op_fn table[2][2] = {{add, sub}, {mul, maxi}};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) printf("table[%d][%d](9,4)=%d\n", i, j, table[i][j](9, 4));
    printf("same function %d different %d\n", lookup("add") == add, lookup("add") == sub);
    void (*cbs[])(int *, void *) = {scale_cb, sum_cb};
    int one = 2;
    cbs[0](&one, &factor);
    printf("via array of callbacks %d\n", one);
    return 0;
}
