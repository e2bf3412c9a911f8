// GCC vector types (vector_size) and machine modes: lane-wise operators, subscripts, casts, layout.
#include <stdio.h>
#include <string.h>

typedef int v4si __attribute__((vector_size(16)));
typedef unsigned char v8qu __attribute__((vector_size(8)));
typedef float v4sf __attribute__((vector_size(16)));
typedef long long v2di __attribute__((vector_size(16)));
typedef short v4hi __attribute__((__vector_size__(8), __may_alias__));
typedef int DItype __attribute__((mode(DI)));
typedef unsigned int UQItype __attribute__((mode(QI)));
typedef int TItype __attribute__((mode(TI)));

struct holder { char tag; v4si v; };

static v4si twice(v4si x) { return x + x; }

static void show(const char *name, v4si v) {
    printf("%s %d %d %d %d\n", name, v[0], v[1], v[2], v[3]);
}

int main(void) {
    v4si a = {1, -2, 3, 40};
    v4si b = {5, 6, -7, 8};
    show("add", a + b);
    show("sub", a - b);
    show("mul", a * b);
    show("div", b / a);
    show("rem", b % a);
    show("and", a & b);
    show("xor", a ^ b);
    show("shl", a << 2);
    show("shr", b >> 1);
    show("scalar", a * 3 + 1);
    show("neg", -a);
    show("not", ~a);
    show("lt", a < b);
    show("eq", a == (v4si){1, 6, 3, 0});
    show("twice", twice(b));

    v4si c = a;
    c[2] = 100;
    c += b;
    c *= 2;
    show("c", c);
    show("a", a);

    v8qu bytes = {250, 1, 2, 3, 4, 5, 6, 7};
    v8qu more = bytes + 10;
    printf("bytes %d %d %d\n", more[0], more[1], more[7]);

    v4sf f = {1.5f, 2.0f, -3.25f, 0.0f};
    v4sf g = f * f - 1.0f;
    printf("floats %.2f %.2f %.2f %.2f\n", g[0], g[1], g[2], g[3]);

    v2di wide = (v2di)a;
    printf("reinterpret %lld %lld\n", wide[0], wide[1]);
    long long whole = (long long)bytes;
    printf("whole %lld\n", whole);
    v4hi halves = (v4hi)whole;
    printf("halves %d %d %d %d\n", halves[0], halves[1], halves[2], halves[3]);

    struct holder h;
    memset(&h, 0, sizeof h);
    h.v = a;
    h.v[1] = 9;
    printf("holder %zu %zu %d\n", sizeof(struct holder), __builtin_offsetof(struct holder, v), h.v[1]);
    printf("sizes %zu %zu %zu %zu %zu %zu\n", sizeof(v4si), sizeof(v8qu), sizeof(DItype),
           sizeof(UQItype), sizeof(TItype), _Alignof(v4si));
    int many = 300;
    UQItype small = many;
    DItype big = 1;
    big <<= 40;
    printf("modes %u %lld\n", small, (long long)big);
    return 0;
}
