// Arbitrary-precision RPN calculator: signed base-10000 limbs in realloc'd arrays, parsing and printing (decimal, hex), schoolbook multiply, long division, modular power, recursive gcd, Newton isqrt, factorial, fibonacci, a command table of function pointers, named registers, goto-based error cleanup, options -x -v -l N.
// RUN: stdin=bigint_rpn.1.in
// RUN: stdin=bigint_rpn.2.in
// RUN: stdin=bigint_rpn.3.in
// RUN: args=-x stdin=bigint_rpn.4.in
// RUN: args=-v stdin=bigint_rpn.5.in
// RUN: args=-l 12 stdin=bigint_rpn.6.in
// RUN: args=-x -v -l 6 stdin=bigint_rpn.7.in
// RUN: stdin=bigint_rpn.8.in
// RUN: stdin=bigint_rpn.9.in
// RUN: stdin=bigint_rpn.10.in
// RUN: stdin=bigint_rpn.11.in
// RUN: stdin="1 2 + 3\n* p\n4 swap - +\n"
// RUN: stdin="100000000 7 / p 0 /\n"
// RUN: stdin="5 3 2 powm . 17 0 %\n"
// RUN: stdin="2 3 0 powm\n"
// RUN: stdin="12 34 + 56 foo 7\n"
// RUN: stdin="1 2 3 4 5 6 7 8 >q 12x\n"
// RUN: stdin="-9 sqrt\n"
// RUN: args=-v stdin="7 <b\n"
// RUN: args=-l 0
// RUN: args=-q stdin="1 2 +\n"
// RUN: args=-l
// RUN:
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASE 10000
#define BASE_DIGITS 4
#define HEX_CHUNK 65536
#define MAX_LINE 512
#define NREGS 26
#define FACT_MAX 1000
#define FIB_MAX 5000
#define POW_MAX 4096
#define ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define IS_ZERO(x) ((x)->n == 0)
#define TOP(c, k) (&(c)->items[(c)->depth - 1 - (k)])
#define CHECK_ALLOC(p) do { if ((p) == NULL) { fputs("out of memory\n", stderr); exit(70); } } while (0)
/* dst = expr, where expr may read dst; the old limbs are freed afterwards */
#define BIG_SET(dst, expr) do { Big set_tmp_ = (expr); big_free(&(dst)); (dst) = set_tmp_; } while (0)

typedef struct {
    int neg;  /* 1 when negative; zero is never negative */
    int n;    /* limbs in use, 0 for zero */
    int cap;  /* limbs allocated */
    int *d;   /* little-endian limbs, each in [0, BASE) */
} Big;

/* doubles as the exit status */
typedef enum { ST_OK = 0, ST_UNDERFLOW = 2, ST_DIVZERO, ST_BADTOKEN, ST_DOMAIN, ST_NOREG } Status;

typedef struct {
    Big *items;          /* the stack, bottom first */
    int depth, cap;
    Big regs[NREGS];     /* registers a..z */
    int reg_set[NREGS];
    int hex, verbose, limit;
    long executed;       /* tokens handled */
} Calc;

typedef Status (*OpFn)(Calc *c);

typedef struct { const char *name; int arity; OpFn fn; } Command;

/* ---------- limb storage ---------- */

static void big_init(Big *x) { x->neg = x->n = x->cap = 0; x->d = NULL; }
static void big_free(Big *x) { free(x->d); big_init(x); }

static void big_reserve(Big *x, int cap) {
    int ncap, *nd;
    if (cap <= x->cap) return;
    ncap = x->cap ? x->cap : 4;
    while (ncap < cap) ncap *= 2;
    nd = realloc(x->d, (size_t)ncap * sizeof *nd);
    CHECK_ALLOC(nd);
    x->d = nd;
    x->cap = ncap;
}

static void big_trim(Big *x) {
    while (x->n > 0 && x->d[x->n - 1] == 0) x->n--;
    if (x->n == 0) x->neg = 0;
}

static Big big_from_long(long v) {
    Big r;
    unsigned long m = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    big_init(&r);
    r.neg = v < 0;
    while (m != 0) {
        big_reserve(&r, r.n + 1);
        r.d[r.n++] = (int)(m % BASE);
        m /= BASE;
    }
    big_trim(&r);
    return r;
}

static Big big_copy(const Big *a) {
    Big r;
    big_init(&r);
    if (a->n > 0) {
        big_reserve(&r, a->n);
        memcpy(r.d, a->d, (size_t)a->n * sizeof(int));
    }
    r.n = a->n;
    r.neg = a->neg;
    return r;
}

/* small values only: fails (returns 0) when |a| needs more than three limbs */
static int big_to_long(const Big *a, long *out) {
    long v = 0;
    int i;
    if (a->n > 3) return 0;
    for (i = a->n - 1; i >= 0; i--) v = v * BASE + a->d[i];
    *out = a->neg ? -v : v;
    return 1;
}

static int big_digits(const Big *a) {
    int top, k;
    if (IS_ZERO(a)) return 1;
    top = a->d[a->n - 1];
    for (k = 0; top > 0; k++) top /= 10;
    return (a->n - 1) * BASE_DIGITS + k;
}

/* ---------- comparison, addition, subtraction ---------- */

static int cmp_mag(const Big *a, const Big *b) {
    int i;
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

static int big_cmp(const Big *a, const Big *b) {
    int c;
    if (a->neg != b->neg) return a->neg ? -1 : 1;
    c = cmp_mag(a, b);
    return a->neg ? -c : c;
}

static Big add_mag(const Big *a, const Big *b) {
    Big r;
    int i, carry = 0, n = MAX(a->n, b->n);
    big_init(&r);
    big_reserve(&r, n + 1);
    for (i = 0; i < n; i++) {
        int s = carry;
        if (i < a->n) s += a->d[i];
        if (i < b->n) s += b->d[i];
        carry = s >= BASE;
        r.d[i] = carry ? s - BASE : s;
    }
    r.d[n] = carry;
    r.n = n + 1;
    big_trim(&r);
    return r;
}

/* |a| - |b|, requires |a| >= |b| */
static Big sub_mag(const Big *a, const Big *b) {
    Big r;
    int i, borrow = 0;
    big_init(&r);
    big_reserve(&r, a->n);
    for (i = 0; i < a->n; i++) {
        int s = a->d[i] - borrow - (i < b->n ? b->d[i] : 0);
        borrow = s < 0;
        r.d[i] = borrow ? s + BASE : s;
    }
    r.n = a->n;
    big_trim(&r);
    return r;
}

static Big big_add(const Big *a, const Big *b) {
    Big r;
    if (a->neg == b->neg) {
        r = add_mag(a, b);
        r.neg = a->neg;
    } else if (cmp_mag(a, b) >= 0) {
        r = sub_mag(a, b);
        r.neg = a->neg;
    } else {
        r = sub_mag(b, a);
        r.neg = b->neg;
    }
    big_trim(&r);
    return r;
}

static Big big_sub(const Big *a, const Big *b) {
    Big nb = *b; /* shallow view with the sign flipped */
    nb.neg = IS_ZERO(b) ? 0 : !b->neg;
    return big_add(a, &nb);
}

/* ---------- multiplication ---------- */

static Big big_mul(const Big *a, const Big *b) {
    Big r;
    int i, j;
    big_init(&r);
    if (IS_ZERO(a) || IS_ZERO(b)) return r;
    big_reserve(&r, a->n + b->n);
    memset(r.d, 0, (size_t)(a->n + b->n) * sizeof(int));
    for (i = 0; i < a->n; i++) {
        long carry = 0;
        for (j = 0; j < b->n; j++) {
            long t = (long)a->d[i] * b->d[j] + r.d[i + j] + carry;
            r.d[i + j] = (int)(t % BASE);
            carry = t / BASE;
        }
        r.d[i + b->n] = (int)carry;
    }
    r.n = a->n + b->n;
    r.neg = a->neg != b->neg;
    big_trim(&r);
    return r;
}

/* x = x * m + add, in place, for 0 <= m, add < 2^20 */
static void big_mul_add_small(Big *x, int m, int add) {
    long carry = add;
    int i;
    for (i = 0; i < x->n; i++) {
        long t = (long)x->d[i] * m + carry;
        x->d[i] = (int)(t % BASE);
        carry = t / BASE;
    }
    while (carry != 0) {
        big_reserve(x, x->n + 1);
        x->d[x->n++] = (int)(carry % BASE);
        carry /= BASE;
    }
    big_trim(x);
}

/* ---------- division ---------- */

/* quotient of |a| by 0 < m <= 65536, remainder of |a| in *rem */
static Big big_divmod_small(const Big *a, int m, int *rem) {
    Big q;
    long r = 0;
    int i;
    big_init(&q);
    big_reserve(&q, a->n > 0 ? a->n : 1);
    for (i = a->n - 1; i >= 0; i--) {
        long cur = r * BASE + a->d[i];
        q.d[i] = (int)(cur / m);
        r = cur % m;
    }
    q.n = a->n;
    big_trim(&q);
    *rem = (int)r;
    return q;
}

/* rem = rem * BASE + limb */
static void shift_in(Big *rem, int limb) {
    if (rem->n == 0 && limb == 0) return;
    big_reserve(rem, rem->n + 1);
    memmove(rem->d + 1, rem->d, (size_t)rem->n * sizeof(int));
    rem->d[0] = limb;
    rem->n++;
}

/* guess of floor(rem / b) from the leading limbs, 0 <= rem < b * BASE: truncating both
   to the limbs from index m - 2 up can only make the guess too large, never too small */
static int estimate_digit(const Big *rem, const Big *b) {
    long long num = 0, den, q;
    int i, m = b->n;
    if (rem->n < m) return 0;
    if (m == 1) {
        for (i = rem->n - 1; i >= 0; i--) num = num * BASE + rem->d[i];
        den = b->d[0];
    } else {
        for (i = rem->n - 1; i >= m - 2; i--) num = num * BASE + rem->d[i];
        den = (long long)b->d[m - 1] * BASE + b->d[m - 2];
    }
    q = num / den;
    return q >= BASE ? BASE - 1 : (int)q;
}

/* truncating division: a = q * b + r, sign of r follows a; b must be nonzero */
static void big_divmod(const Big *a, const Big *b, Big *q, Big *r) {
    Big rem, t, bm;
    int i, qd;
    big_init(q);
    big_init(&rem);
    if (cmp_mag(a, b) < 0) {
        *r = big_copy(a);
        return;
    }
    bm = *b;
    bm.neg = 0;
    big_reserve(q, a->n);
    q->n = a->n;
    for (i = a->n - 1; i >= 0; i--) {
        shift_in(&rem, a->d[i]);
        qd = estimate_digit(&rem, &bm);
        t = big_copy(&bm);
        big_mul_add_small(&t, qd, 0);
        while (cmp_mag(&t, &rem) > 0) { /* guess too large */
            qd--;
            BIG_SET(t, sub_mag(&t, &bm));
        }
        BIG_SET(rem, sub_mag(&rem, &t)); /* the guess is never too small */
        big_free(&t);
        q->d[i] = qd;
    }
    q->neg = a->neg != b->neg;
    big_trim(q);
    rem.neg = IS_ZERO(&rem) ? 0 : a->neg;
    *r = rem;
}

/* x = x mod |m|, in [0, |m|) */
static void mod_reduce(Big *x, const Big *m) {
    Big q, r, mm = *m;
    mm.neg = 0;
    big_divmod(x, &mm, &q, &r);
    big_free(&q);
    big_free(x);
    if (r.neg) BIG_SET(r, big_add(&r, &mm));
    *x = r;
}

/* ---------- number theory ---------- */

static Big big_gcd(const Big *a, const Big *b) {
    Big q, r, g;
    if (IS_ZERO(b)) {
        g = big_copy(a);
        g.neg = 0;
        return g;
    }
    big_divmod(a, b, &q, &r);
    big_free(&q);
    g = big_gcd(b, &r);
    big_free(&r);
    return g;
}

static Big big_pow10(int k) {
    Big r;
    int i, limb = 1;
    big_init(&r);
    big_reserve(&r, k / BASE_DIGITS + 1);
    for (i = 0; i < k / BASE_DIGITS; i++) r.d[i] = 0;
    for (i = 0; i < k % BASE_DIGITS; i++) limb *= 10;
    r.d[k / BASE_DIGITS] = limb;
    r.n = k / BASE_DIGITS + 1;
    return r;
}

/* floor(sqrt(a)) for a >= 0 by Newton's iteration from above */
static Big big_isqrt(const Big *a) {
    Big x, y, q, r;
    int two_rem;
    if (IS_ZERO(a)) return big_copy(a);
    x = big_pow10((big_digits(a) + 1) / 2);
    for (;;) { /* y = (x + a / x) / 2 */
        big_divmod(a, &x, &q, &r);
        big_free(&r);
        BIG_SET(q, big_add(&x, &q));
        y = big_divmod_small(&q, 2, &two_rem);
        big_free(&q);
        if (big_cmp(&y, &x) >= 0) {
            big_free(&y);
            return x;
        }
        big_free(&x);
        x = y;
    }
}

/* ---------- text conversion ---------- */

static int parse_number(const char *s, Big *out) {
    const char *p = s;
    int neg = 0, len, i, hex = 0;
    big_init(out);
    if (*p == '-' && p[1] != '\0') {
        neg = 1;
        p++;
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        hex = 1;
        p += 2;
    }
    len = (int)strlen(p);
    if (len == 0) return 0;
    for (i = 0; i < len; i++)
        if (hex ? !isxdigit((unsigned char)p[i]) : !isdigit((unsigned char)p[i])) return 0;
    if (hex) {
        for (i = 0; i < len; i++) {
            int v = isdigit((unsigned char)p[i]) ? p[i] - '0'
                                                 : tolower((unsigned char)p[i]) - 'a' + 10;
            big_mul_add_small(out, 16, v);
        }
    } else {
        big_reserve(out, len / BASE_DIGITS + 1);
        for (i = len; i > 0; i -= BASE_DIGITS) {
            int start = i - BASE_DIGITS < 0 ? 0 : i - BASE_DIGITS, limb = 0, k;
            for (k = start; k < i; k++) limb = limb * 10 + (p[k] - '0');
            out->d[out->n++] = limb;
        }
    }
    out->neg = neg;
    big_trim(out);
    return 1;
}

static char *to_decimal(const Big *a) {
    char *s = malloc((size_t)a->n * BASE_DIGITS + 3);
    int pos = 0, i;
    CHECK_ALLOC(s);
    if (a->neg) s[pos++] = '-';
    pos += sprintf(s + pos, "%d", IS_ZERO(a) ? 0 : a->d[a->n - 1]);
    for (i = a->n - 2; i >= 0; i--) pos += sprintf(s + pos, "%04d", a->d[i]);
    return s;
}

static char *to_hex(const Big *a) {
    int *chunks = malloc(((size_t)a->n + 1) * sizeof(int));
    char *s = malloc((size_t)a->n * 4 + 8);
    int nch = 0, pos = 0, rem, i;
    Big cur = big_copy(a);
    CHECK_ALLOC(chunks);
    CHECK_ALLOC(s);
    while (!IS_ZERO(&cur)) {
        BIG_SET(cur, big_divmod_small(&cur, HEX_CHUNK, &rem));
        chunks[nch++] = rem;
    }
    big_free(&cur);
    pos += sprintf(s, "%s0x", a->neg ? "-" : "");
    if (nch == 0) strcpy(s + pos, "0");
    else pos += sprintf(s + pos, "%x", (unsigned)chunks[nch - 1]);
    for (i = nch - 2; i >= 0; i--) pos += sprintf(s + pos, "%04x", (unsigned)chunks[i]);
    free(chunks);
    return s;
}

static void print_big(const Calc *c, const Big *a) {
    char *s = c->hex ? to_hex(a) : to_decimal(a);
    int skip = (a->neg ? 1 : 0) + (c->hex ? 2 : 0);
    int ndig = (int)strlen(s) - skip;
    if (c->limit > 0 && ndig > c->limit) printf("%.*s...(%d digits)", skip + c->limit, s, ndig);
    else fputs(s, stdout);
    free(s);
}

static void dump_stack(const Calc *c, const char *label) {
    int i;
    printf("%s[%d]", label, c->depth);
    for (i = 0; i < c->depth; i++) {
        putchar(' ');
        print_big(c, &c->items[i]);
    }
    putchar('\n');
}

/* ---------- the stack ---------- */

static void push(Calc *c, Big v) {
    if (c->depth == c->cap) {
        int ncap = c->cap ? c->cap * 2 : 4;
        Big *ni = realloc(c->items, (size_t)ncap * sizeof *ni);
        CHECK_ALLOC(ni);
        c->items = ni;
        c->cap = ncap;
    }
    c->items[c->depth++] = v;
}

static void drop_n(Calc *c, int k) {
    while (k-- > 0) big_free(&c->items[--c->depth]);
}

/* pop k operands and push the result, whose limbs the stack now owns */
static void replace(Calc *c, int k, Big r) {
    drop_n(c, k);
    push(c, r);
}

/* ---------- commands ---------- */

/* binary commands that cannot fail: second-from-top OP top */
#define BINARY_OP(name, fn)                             \
    static Status name(Calc *c) {                       \
        replace(c, 2, fn(TOP(c, 1), TOP(c, 0)));        \
        return ST_OK;                                   \
    }

BINARY_OP(op_add, big_add)
BINARY_OP(op_sub, big_sub)
BINARY_OP(op_mul, big_mul)
BINARY_OP(op_gcd, big_gcd)

enum DivWant { WANT_QUOT, WANT_REM, WANT_BOTH };

static Status divide(Calc *c, enum DivWant want) {
    Big q, r;
    if (IS_ZERO(TOP(c, 0))) return ST_DIVZERO;
    big_divmod(TOP(c, 1), TOP(c, 0), &q, &r);
    drop_n(c, 2);
    switch (want) {
    case WANT_QUOT: push(c, q); big_free(&r); break;
    case WANT_REM: push(c, r); big_free(&q); break;
    case WANT_BOTH: push(c, q); push(c, r); break;
    }
    return ST_OK;
}

static Status op_div(Calc *c) { return divide(c, WANT_QUOT); }
static Status op_mod(Calc *c) { return divide(c, WANT_REM); }
static Status op_divmod(Calc *c) { return divide(c, WANT_BOTH); }

/* small non-negative integer operand, or -1 when negative or above max */
static long small_arg(const Big *a, long max) {
    long v;
    if (a->neg || !big_to_long(a, &v) || v > max) return -1;
    return v;
}

static Status op_pow(Calc *c) {
    long e = small_arg(TOP(c, 0), POW_MAX);
    Big result, base;
    if (e < 0) return ST_DOMAIN;
    result = big_from_long(1);
    base = big_copy(TOP(c, 1));
    while (e > 0) { /* square and multiply, low bit first */
        if (e & 1) BIG_SET(result, big_mul(&result, &base));
        e >>= 1;
        if (e > 0) BIG_SET(base, big_mul(&base, &base));
    }
    big_free(&base);
    replace(c, 2, result);
    return ST_OK;
}

static void mulmod(Big *x, const Big *y, const Big *m) {
    BIG_SET(*x, big_mul(x, y));
    mod_reduce(x, m);
}

static Status op_powm(Calc *c) {
    const Big *m = TOP(c, 0), *e = TOP(c, 1), *b = TOP(c, 2);
    Status st = ST_OK;
    Big base, exp, result;
    int bit;
    big_init(&base), big_init(&exp), big_init(&result);
    if (IS_ZERO(m)) {
        st = ST_DIVZERO;
        goto done;
    }
    if (e->neg) {
        st = ST_DOMAIN;
        goto done;
    }
    base = big_copy(b);
    mod_reduce(&base, m);
    result = big_from_long(1);
    mod_reduce(&result, m);
    exp = big_copy(e);
    while (!IS_ZERO(&exp)) {
        BIG_SET(exp, big_divmod_small(&exp, 2, &bit));
        if (bit) mulmod(&result, &base, m);
        if (!IS_ZERO(&exp)) mulmod(&base, &base, m);
    }
    replace(c, 3, result);
    big_init(&result); /* now owned by the stack */
done:
    big_free(&base);
    big_free(&exp);
    big_free(&result);
    return st;
}

static Status op_fact(Calc *c) {
    long n = small_arg(TOP(c, 0), FACT_MAX), i;
    Big r;
    if (n < 0) return ST_DOMAIN;
    r = big_from_long(1);
    for (i = 2; i <= n; i++) big_mul_add_small(&r, (int)i, 0);
    replace(c, 1, r);
    return ST_OK;
}

static Status op_fib(Calc *c) {
    long n = small_arg(TOP(c, 0), FIB_MAX), i;
    Big a, b, t;
    if (n < 0) return ST_DOMAIN;
    a = big_from_long(0);
    b = big_from_long(1);
    for (i = 0; i < n; i++) {
        t = big_add(&a, &b);
        big_free(&a);
        a = b;
        b = t;
    }
    big_free(&b);
    replace(c, 1, a);
    return ST_OK;
}

static Status op_sqrt(Calc *c) {
    if (TOP(c, 0)->neg) return ST_DOMAIN;
    replace(c, 1, big_isqrt(TOP(c, 0)));
    return ST_OK;
}

static Status op_neg(Calc *c) {
    TOP(c, 0)->neg = IS_ZERO(TOP(c, 0)) ? 0 : !TOP(c, 0)->neg;
    return ST_OK;
}

static Status op_abs(Calc *c) { TOP(c, 0)->neg = 0; return ST_OK; }

static Status op_cmp(Calc *c) {
    replace(c, 2, big_from_long(big_cmp(TOP(c, 1), TOP(c, 0))));
    return ST_OK;
}

static Status op_digits(Calc *c) {
    replace(c, 1, big_from_long(big_digits(TOP(c, 0))));
    return ST_OK;
}

static Status op_dup(Calc *c) { push(c, big_copy(TOP(c, 0))); return ST_OK; }
static Status op_over(Calc *c) { push(c, big_copy(TOP(c, 1))); return ST_OK; }
static Status op_drop(Calc *c) { drop_n(c, 1); return ST_OK; }
static Status op_clear(Calc *c) { drop_n(c, c->depth); return ST_OK; }
static Status op_depth(Calc *c) { push(c, big_from_long(c->depth)); return ST_OK; }
static Status op_stack(Calc *c) { dump_stack(c, "stack"); return ST_OK; }

static Status op_swap(Calc *c) {
    Big t = *TOP(c, 0);
    *TOP(c, 0) = *TOP(c, 1);
    *TOP(c, 1) = t;
    return ST_OK;
}

static Status op_rot(Calc *c) { /* a b c -> b c a */
    Big t = *TOP(c, 2);
    *TOP(c, 2) = *TOP(c, 1);
    *TOP(c, 1) = *TOP(c, 0);
    *TOP(c, 0) = t;
    return ST_OK;
}

static Status op_print(Calc *c) { print_big(c, TOP(c, 0)); putchar('\n'); return ST_OK; }
static Status op_pop_print(Calc *c) { op_print(c); drop_n(c, 1); return ST_OK; }

static const Command commands[] = {
    {"+", 2, op_add},       {"-", 2, op_sub},        {"*", 2, op_mul},
    {"/", 2, op_div},       {"%", 2, op_mod},        {"/%", 2, op_divmod},
    {"^", 2, op_pow},       {"powm", 3, op_powm},    {"gcd", 2, op_gcd},
    {"!", 1, op_fact},      {"fib", 1, op_fib},      {"sqrt", 1, op_sqrt},
    {"neg", 1, op_neg},     {"abs", 1, op_abs},
    {"cmp", 2, op_cmp},     {"digits", 1, op_digits}, {"dup", 1, op_dup},
    {"over", 2, op_over},   {"swap", 2, op_swap},    {"rot", 3, op_rot},
    {"drop", 1, op_drop},   {"clear", 0, op_clear},  {"depth", 0, op_depth},
    {"p", 1, op_print},     {".", 1, op_pop_print},  {"f", 0, op_stack},
};

static const Command *find_command(const char *name) {
    int i;
    for (i = 0; i < ARRAY_LEN(commands); i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

static Status register_op(Calc *c, char kind, char name) {
    int r = name - 'a';
    if (kind == '>') {
        if (c->depth < 1) return ST_UNDERFLOW;
        if (c->reg_set[r]) big_free(&c->regs[r]);
        c->regs[r] = c->items[--c->depth]; /* moves the limbs */
        c->reg_set[r] = 1;
        return ST_OK;
    }
    if (!c->reg_set[r]) return ST_NOREG;
    push(c, big_copy(&c->regs[r]));
    return ST_OK;
}

static Status exec_token(Calc *c, const char *tok, int *need) {
    const Command *cmd;
    Big v;
    c->executed++;
    if ((tok[0] == '>' || tok[0] == '<') && tok[1] >= 'a' && tok[1] <= 'z' && tok[2] == '\0')
        return register_op(c, tok[0], tok[1]);
    cmd = find_command(tok);
    if (cmd != NULL) {
        if (c->depth < cmd->arity) {
            *need = cmd->arity;
            return ST_UNDERFLOW;
        }
        return cmd->fn(c);
    }
    if (parse_number(tok, &v)) {
        push(c, v);
        return ST_OK;
    }
    big_free(&v);
    return ST_BADTOKEN;
}

static const char *status_text(Status st) {
    switch (st) {
    case ST_UNDERFLOW: return "stack underflow";
    case ST_DIVZERO: return "division by zero";
    case ST_BADTOKEN: return "bad token";
    case ST_DOMAIN: return "argument out of range";
    case ST_NOREG: return "empty register";
    default: break;
    }
    return "ok";
}

static void calc_free(Calc *c) {
    int i;
    drop_n(c, c->depth);
    free(c->items);
    for (i = 0; i < NREGS; i++)
        if (c->reg_set[i]) big_free(&c->regs[i]);
}

int main(int argc, char **argv) {
    Calc calc;
    char *line = NULL, *tok = NULL, *end;
    int i, lineno = 0, need = 0, rc = 0;
    long v;
    Status st = ST_OK;
    memset(&calc, 0, sizeof calc);
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-x") == 0) {
            calc.hex = 1;
        } else if (strcmp(argv[i], "-v") == 0) {
            calc.verbose = 1;
        } else if (strcmp(argv[i], "-l") == 0) {
            if (i + 1 >= argc) goto usage;
            v = strtol(argv[++i], &end, 10);
            if (*end != '\0' || v < 1 || v > 10000) goto usage;
            calc.limit = (int)v;
        } else {
            goto usage;
        }
    }
    line = malloc(MAX_LINE);
    tok = malloc(MAX_LINE);
    CHECK_ALLOC(line);
    CHECK_ALLOC(tok);
    while (fgets(line, MAX_LINE, stdin) != NULL) {
        char *p = line;
        lineno++;
        for (;;) {
            int len = 0;
            while (isspace((unsigned char)*p)) p++;
            if (*p == '\0' || *p == '#') break;
            while (*p != '\0' && !isspace((unsigned char)*p)) tok[len++] = *p++;
            tok[len] = '\0';
            st = exec_token(&calc, tok, &need);
            if (st != ST_OK) goto fail;
        }
        if (calc.verbose) dump_stack(&calc, "  ");
    }
    if (calc.depth > 0) dump_stack(&calc, "left");
    printf("done: %d lines, %ld tokens, %s\n", lineno, calc.executed, status_text(st));
    goto out;

fail:
    printf("error on line %d: %s at '%s'", lineno, status_text(st), tok);
    if (st == ST_UNDERFLOW && need > 0) printf(" (needs %d, depth %d)", need, calc.depth);
    putchar('\n');
    rc = (int)st;
out:
    free(line);
    free(tok);
    calc_free(&calc);
    return rc;

usage:
    printf("usage: bigint_rpn [-x] [-v] [-l DIGITS]\n");
    return 1;
}
