// Mutual recursion: even/odd, a recursive-descent expression parser (expr/term/factor), Hofstadter sequences.
#include <stdio.h>

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static const char *pos;
static int expr(void);

static void skip(void) {
    while (*pos == ' ') pos++;
}

static int factor(void) {
    skip();
    if (*pos == '(') {
        pos++;
        int v = expr();
        skip();
        pos++; /* ')' */
        return v;
    }
    if (*pos == '-') {
        pos++;
        return -factor();
    }
    int v = 0;
    while (*pos >= '0' && *pos <= '9') v = v * 10 + (*pos++ - '0');
    return v;
}

static int term(void) {
    int v = factor();
    for (;;) {
        skip();
        if (*pos == '*') { pos++; v *= factor(); }
        else if (*pos == '/') { pos++; v /= factor(); }
        else if (*pos == '%') { pos++; v %= factor(); }
        else return v;
    }
}

static int expr(void) {
    int v = term();
    for (;;) {
        skip();
        if (*pos == '+') { pos++; v += term(); }
        else if (*pos == '-') { pos++; v -= term(); }
        else return v;
    }
}

static int eval(const char *s) {
    pos = s;
    return expr();
}

static int hof_m(int n);
static int hof_f(int n) { return n == 0 ? 1 : n - hof_m(hof_f(n - 1)); }
static int hof_m(int n) { return n == 0 ? 0 : n - hof_f(hof_m(n - 1)); }

int main(void) {
    unsigned tests[] = {0, 1, 10, 77, 500};
    for (int i = 0; i < 5; i++) printf("%u: even %d odd %d\n", tests[i], is_even(tests[i]), is_odd(tests[i]));
    const char *exprs[] = {"1 + 2 * 3", "(1 + 2) * 3", "100 / 7 % 4", "-(4 - 10) * -2",
                           "2 * (3 + (4 - 1) * 5) - 7", "((((42))))", "10 - 3 - 2"};
    for (int i = 0; i < 7; i++) printf("%s = %d\n", exprs[i], eval(exprs[i]));
    printf("F:");
    for (int i = 0; i < 15; i++) printf(" %d", hof_f(i));
    printf("\nM:");
    for (int i = 0; i < 15; i++) printf(" %d", hof_m(i));
    putchar('\n');
    return 0;
}
