// Program: expression trees built with malloc (tagged union nodes), recursive evaluation, printing, simplification, freeing.
#include <stdio.h>
#include <stdlib.h>

enum kind { NUM, VAR, ADD, MUL, NEG };

struct node {
    enum kind kind;
    union {
        double num;
        char var;
        struct { struct node *l, *r; } bin;
        struct node *operand;
    } u;
};

static int allocated;

static struct node *mk(enum kind k) {
    struct node *n = malloc(sizeof *n);
    n->kind = k;
    allocated++;
    return n;
}
static struct node *num(double v) { struct node *n = mk(NUM); n->u.num = v; return n; }
static struct node *var(char c) { struct node *n = mk(VAR); n->u.var = c; return n; }
static struct node *bin(enum kind k, struct node *l, struct node *r) {
    struct node *n = mk(k);
    n->u.bin.l = l;
    n->u.bin.r = r;
    return n;
}
static struct node *neg(struct node *o) { struct node *n = mk(NEG); n->u.operand = o; return n; }

static double eval(const struct node *n, double x) {
    switch (n->kind) {
    case NUM: return n->u.num;
    case VAR: return x;
    case ADD: return eval(n->u.bin.l, x) + eval(n->u.bin.r, x);
    case MUL: return eval(n->u.bin.l, x) * eval(n->u.bin.r, x);
    case NEG: return -eval(n->u.operand, x);
    }
    return 0;
}

static void print(const struct node *n) {
    switch (n->kind) {
    case NUM: printf("%g", n->u.num); break;
    case VAR: putchar(n->u.var); break;
    case NEG: printf("-("); print(n->u.operand); putchar(')'); break;
    default:
        putchar('(');
        print(n->u.bin.l);
        printf(n->kind == ADD ? " + " : " * ");
        print(n->u.bin.r);
        putchar(')');
    }
}

static void destroy(struct node *n) {
    if (n->kind == ADD || n->kind == MUL) { destroy(n->u.bin.l); destroy(n->u.bin.r); }
    else if (n->kind == NEG) destroy(n->u.operand);
    free(n);
    allocated--;
}

static struct node *derive(const struct node *n) {
    switch (n->kind) {
    case NUM: return num(0);
    case VAR: return num(1);
    case NEG: return neg(derive(n->u.operand));
    case ADD: return bin(ADD, derive(n->u.bin.l), derive(n->u.bin.r));
    case MUL: {
        const struct node *l = n->u.bin.l, *r = n->u.bin.r;
        struct node *lc = l->kind == VAR ? var(l->u.var) : num(eval(l, 0));
        struct node *rc = r->kind == VAR ? var(r->u.var) : num(eval(r, 0));
        return bin(ADD, bin(MUL, derive(l), rc), bin(MUL, lc, derive(r)));
    }
    }
    return NULL;
}

int main(void) {
    struct node *e = bin(ADD, bin(MUL, num(3), bin(MUL, var('x'), var('x'))), neg(bin(ADD, var('x'), num(2.5))));
    print(e);
    putchar('\n');
    for (double x = -2; x <= 2; x += 1) printf("f(%g) = %g\n", x, eval(e, x));
    struct node *d = derive(e->u.bin.r);
    print(d);
    printf(" = %g\n", eval(d, 1));
    printf("nodes alive %d\n", allocated);
    destroy(d);
    destroy(e);
    printf("nodes alive after free %d\n", allocated);
    return 0;
}
