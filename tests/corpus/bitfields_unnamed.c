// Unnamed bit-fields (padding such as glibc's `int :32;`) and zero-width ones: layout by offsetof and sizeof, stores and loads around them.
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct timex_like {
    int a;
    int : 32;
    int : 32;
    long b;
    unsigned c : 3;
    int : 5;
    unsigned d : 4;
    char : 0;
    char e;
    int : 0;
    short f;
};

struct small {
    char a;
    int : 3;
    char b;
};

struct tail {
    unsigned x : 7;
    unsigned : 9;
    unsigned y : 16;
    long long : 1;
};

union u {
    int : 16;
    unsigned v;
};

int main(void) {
    struct timex_like t;
    memset(&t, 0, sizeof t);
    t.a = 1;
    t.b = 2;
    t.c = 5;
    t.d = 9;
    t.e = 'x';
    t.f = 7;
    printf("timex_like: size %zu align %zu b@%zu e@%zu f@%zu\n", sizeof t,
           _Alignof(struct timex_like), offsetof(struct timex_like, b),
           offsetof(struct timex_like, e), offsetof(struct timex_like, f));
    printf("values: %d %ld %u %u %c %d\n", t.a, t.b, t.c, t.d, t.e, t.f);
    unsigned char bytes[sizeof t];
    memcpy(bytes, &t, sizeof t);
    for (size_t i = 0; i < sizeof t; i++)
        printf("%02x", bytes[i]);
    printf("\n");

    struct small s = {'p', 'q'};
    printf("small: size %zu align %zu b@%zu: %c %c\n", sizeof s, _Alignof(struct small),
           offsetof(struct small, b), s.a, s.b);

    struct tail tl = {100, 40000};
    tl.x += 20;
    printf("tail: size %zu align %zu x %u y %u\n", sizeof tl, _Alignof(struct tail), tl.x,
           tl.y);

    union u w;
    w.v = 0x12345678u;
    printf("union: size %zu v %x\n", sizeof w, w.v);

    struct timex_like arr[3];
    memset(arr, 0, sizeof arr);
    for (int i = 0; i < 3; i++) {
        arr[i].c = (unsigned)i + 1;
        arr[i].f = (short)(i * 100);
    }
    printf("array: stride %zu sum %d\n", (size_t)((char *)&arr[1] - (char *)&arr[0]),
           arr[0].c + arr[1].c + arr[2].c + arr[1].f + arr[2].f);
    return 0;
}
