// Declarators whose name is in parentheses right after a type of several keywords
// (`unsigned long(name)(...)`, json-c's linkhash.h): the parser takes the last keyword
// for a function's name and `(name)` for its parameter list.
#include <stdio.h>

typedef unsigned long(hash_fn)(const void *k);
typedef long long(wide_fn)(int);
typedef unsigned char (byte_fn)(int);
typedef unsigned int(count_fn)(unsigned int, unsigned int);
typedef long double(ext_fn)(void);
typedef int(plain_fn)(int);

unsigned long(add_ul)(unsigned long a, unsigned long b);
unsigned long(add_ul)(unsigned long a, unsigned long b) { return a + b; }

static unsigned long hash_ptr(const void *k) { return (unsigned long)k % 97 + 1000000000000UL; }
static long long widen(int x) { return (long long)x << 40; }
static unsigned char low_byte(int x) { return (unsigned char)x; }
static unsigned int mul(unsigned int a, unsigned int b) { return a * b; }
static long double third(void) { return 1.0L / 3; }
static int twice(int x) { return 2 * x; }

int main(void) {
    hash_fn *h = hash_ptr;
    wide_fn *w = widen;
    byte_fn *b = low_byte;
    count_fn *c = mul;
    ext_fn *e = third;
    plain_fn *p = twice;
    static int cell;
    printf("%zu %zu %zu %zu %zu\n", sizeof(h(&cell)), sizeof(w(1)), sizeof(b(1)),
           sizeof(c(1, 2)), sizeof(e()));
    printf("%d %lld %u %u %d\n", h(0) == 1000000000000UL, w(3), b(-1), c(70000, 70000),
           p(21));
    printf("%lu %d\n", add_ul(4000000000UL, 4000000000UL), (int)(e() * 3 + 0.5L));
    return 0;
}
