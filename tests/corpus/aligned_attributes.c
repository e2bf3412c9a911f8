// GNU aligned attributes: on members, on records (before and after the body), within packed records, and after a variable's declarator.
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct member { char c; int i __attribute__((aligned(8))); char d; };
struct __attribute__((aligned(16))) before { int x; };
struct after { short s; } __attribute__((__aligned__(32)));
struct __attribute__((packed)) tight { char c; int i __attribute__((aligned(4))); char d; };
struct bare { char c; long long v __attribute__((aligned)); };
typedef struct { char tag; double d __attribute__((aligned(16))); } boxed;

static char buffer[64] __attribute__((aligned(16)));
static int counter __attribute__((aligned(8))) = 3;

struct nest { char c; struct member m; struct after a; };

static int sum(const struct member *m) { return m->c + m->i + m->d; }

int main(void) {
    printf("member %zu %zu %zu %zu\n", sizeof(struct member), _Alignof(struct member),
           offsetof(struct member, i), offsetof(struct member, d));
    printf("before %zu %zu\n", sizeof(struct before), _Alignof(struct before));
    printf("after %zu %zu\n", sizeof(struct after), _Alignof(struct after));
    printf("tight %zu %zu %zu\n", sizeof(struct tight), offsetof(struct tight, i),
           offsetof(struct tight, d));
    printf("bare %zu %zu\n", sizeof(struct bare), offsetof(struct bare, v));
    printf("boxed %zu %zu\n", sizeof(boxed), offsetof(boxed, d));
    printf("nest %zu %zu %zu\n", sizeof(struct nest), offsetof(struct nest, m),
           offsetof(struct nest, a));
    struct member m;
    memset(&m, 0, sizeof m);
    m.c = 1;
    m.i = 20;
    m.d = 3;
    struct member copy = m;
    buffer[5] = 7;
    counter += buffer[5];
    printf("values %d %d\n", sum(&copy), counter);
    return 0;
}
