// Varargs: user functions with ... reading ints, doubles, longs and strings via va_list, va_copy, sentinels.
#include <stdio.h>
#include <stdarg.h>

static int sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static double average(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, double);
    va_end(ap);
    return n ? s / n : 0;
}

static size_t total_len(const char *first, ...) {
    size_t len = 0;
    va_list ap;
    va_start(ap, first);
    for (const char *s = first; s; s = va_arg(ap, const char *))
        while (*s++) len++;
    va_end(ap);
    return len;
}

static long mixed(const char *fmt, ...) {
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    long acc = 0;
    for (const char *f = fmt; *f; f++) {
        switch (*f) {
        case 'i': acc += va_arg(ap, int); break;
        case 'l': acc += va_arg(ap, long); break;
        case 'd': acc += (long)(va_arg(ap, double) * 10); break;
        case 'c': acc += va_arg(ap, int) - 'a'; break;
        }
    }
    long first = *fmt == 'i' ? va_arg(again, int) : -1;
    va_end(again);
    va_end(ap);
    return acc * 1000 + first;
}

static int max_of(int count, ...) {
    va_list ap;
    va_start(ap, count);
    int best = va_arg(ap, int);
    while (--count > 0) {
        int v = va_arg(ap, int);
        if (v > best) best = v;
    }
    va_end(ap);
    return best;
}

int main(void) {
    printf("sum() = %d\n", sum(0));
    printf("sum(1..5) = %d\n", sum(5, 1, 2, 3, 4, 5));
    printf("sum negatives = %d\n", sum(3, -10, 20, -30));
    char c = 'x';
    short s = -3;
    printf("promoted char/short = %d\n", sum(2, c, s));
    printf("average = %.3f\n", average(4, 1.0, 2.5, 3.5, 10.0));
    float f = 0.5f;
    printf("float promoted to double = %.3f\n", average(2, f, 1.5));
    printf("total_len = %zu\n", total_len("ab", "cde", "", "fghi", (char *)NULL));
    printf("mixed = %ld\n", mixed("ilcdi", 7, 100000L, 'e', 2.5, -1));
    printf("max_of = %d %d\n", max_of(1, 42), max_of(6, 3, 9, -2, 14, 0, 7));
    int many = sum(12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    printf("many args = %d\n", many);
    return 0;
}
