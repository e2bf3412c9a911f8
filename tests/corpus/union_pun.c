// Unions: type punning between float/int and bytes, tagged unions, union size and shared storage.
#include <stdio.h>
#include <stdint.h>

union word {
    uint32_t u;
    int32_t i;
    float f;
    unsigned char b[4];
};

union dword {
    double d;
    uint64_t u;
    uint32_t half[2];
};

enum kind { K_INT, K_DBL, K_STR };

struct value {
    enum kind kind;
    union {
        long i;
        double d;
        const char *s;
    } as;
};

static void print_value(struct value v) {
    switch (v.kind) {
    case K_INT: printf("int %ld\n", v.as.i); break;
    case K_DBL: printf("double %.3f\n", v.as.d); break;
    case K_STR: printf("string %s\n", v.as.s); break;
    }
}

int main(void) {
    union word w;
    w.f = 1.0f;
    printf("1.0f bits %08x\n", w.u);
    w.f = -2.5f;
    printf("-2.5f bits %08x bytes %02x %02x %02x %02x\n", w.u, w.b[0], w.b[1], w.b[2], w.b[3]);
    w.u = 0x40490fdb;
    printf("0x40490fdb as float %.6f\n", w.f);
    w.i = -1;
    printf("-1 as unsigned %u\n", w.u);
    w.u = 0;
    w.b[3] = 0x80;
    printf("sign bit only: int %d float %g\n", w.i, w.f);
    union dword d;
    d.d = 1.0;
    printf("1.0 bits %016llx lo %08x hi %08x\n", (unsigned long long)d.u, d.half[0], d.half[1]);
    d.u = 0x7FF0000000000000ull;
    printf("inf: %f\n", d.d);
    d.d = 0.1;
    uint64_t mant = d.u & ((1ull << 52) - 1);
    int exp = (int)((d.u >> 52) & 0x7FF) - 1023;
    printf("0.1 exponent %d mantissa %013llx\n", exp, (unsigned long long)mant);
    printf("sizes %zu %zu %zu\n", sizeof(union word), sizeof(union dword), sizeof(struct value));
    struct value vals[3];
    vals[0].kind = K_INT;
    vals[0].as.i = -42;
    vals[1].kind = K_DBL;
    vals[1].as.d = 2.718;
    vals[2].kind = K_STR;
    vals[2].as.s = "tagged";
    for (int i = 0; i < 3; i++) print_value(vals[i]);
    union word init = {.b = {1, 2, 3, 4}};
    printf("designated union init %08x\n", init.u);
    union word first = {0x12345678};
    printf("first member init %02x\n", first.b[0]);
    float fs[4] = {0.0f, 0.5f, 3.0f, -0.0f};
    for (int i = 0; i < 4; i++) {
        union word t = {.f = fs[i]};
        printf("%g=%08x ", fs[i], t.u);
    }
    putchar('\n');
    return 0;
}
