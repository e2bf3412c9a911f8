// va_arg in every expression position: stores through `*va_arg(ap, int *)`, parenthesized pointer types, member and subscript of the result, typedef, struct and function-pointer types.
#include <stdarg.h>
#include <stdio.h>

typedef long long i64;
typedef int (*unary_fn)(int);
struct pair { int a; long b; };

static int twice(int x) { return 2 * x; }

/* Reads arguments by the letters of `fmt`, the way printf-like code does. */
static long collect(const char *fmt, ...) {
    va_list ap;
    long total = 0;
    va_start(ap, fmt);
    for (const char *f = fmt; *f; f++) {
        switch (*f) {
        case 'n':
            *va_arg(ap, int *) = (int)total;
            break;
        case 'N':
            *(va_arg(ap, int *)) = (int)total + 1;
            break;
        case 's': {
            const char *s = (va_arg(ap, const char *));
            total += s[0];
            break;
        }
        case 'c':
            total += va_arg(ap, char *)[1];
            break;
        case 'p':
            total += va_arg(ap, struct pair).b;
            break;
        case 'q':
            total += (va_arg(ap, struct pair *))->a;
            break;
        case 'l':
            total += (va_arg(ap, i64)) + 1;
            break;
        case 'd':
            total += (long)(va_arg(ap, double) * 10);
            break;
        case 'f': {
            unary_fn fn = va_arg(ap, int (*)(int));
            total += fn((int)total);
            break;
        }
        case 'u':
            total += va_arg(ap, unsigned long) % 1000;
            break;
        default:
            total += va_arg(ap, int);
        }
    }
    va_end(ap);
    return total;
}

static void show(const char *label, long v) { printf("%s: %ld\n", label, v); }

int main(void) {
    int at = -1, at2 = -1;
    struct pair pr = {3, 40};
    long r = collect("insNcpqldfu", 5, &at, "A", &at2, "xy", pr, &pr, (i64)100, 2.5, twice,
                     123456ul);
    show("total", r);
    show("at", at);
    show("at2", at2);
    show("ints", collect("iii", 1, 2, 3));
    show("none", collect(""));
    return 0;
}
