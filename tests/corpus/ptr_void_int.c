// Pointers: void* casts, generic byte access, pointer/integer round trips through uintptr_t, NULL checks.
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static void generic_swap(void *a, void *b, size_t size) {
    unsigned char *x = a, *y = b;
    for (size_t i = 0; i < size; i++) {
        unsigned char t = x[i];
        x[i] = y[i];
        y[i] = t;
    }
}

static int sum_bytes(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    int s = 0;
    while (n--) s += *b++;
    return s;
}

static void *nth(void *base, size_t size, size_t i) { return (char *)base + i * size; }

int main(void) {
    int a = 1, b = 2;
    generic_swap(&a, &b, sizeof a);
    double x = 1.5, y = -2.25;
    generic_swap(&x, &y, sizeof x);
    printf("swapped %d %d %.2f %.2f\n", a, b, x, y);
    unsigned int word = 0x01020304;
    printf("byte sum %d\n", sum_bytes(&word, sizeof word));
    unsigned char *first = (unsigned char *)&word;
    printf("little endian low byte %d\n", first[0]);

    int arr[4] = {10, 20, 30, 40};
    void *vp = arr;
    int *ip = vp;
    printf("via void* %d %d\n", ip[1], *(int *)nth(arr, sizeof(int), 3));

    uintptr_t addr = (uintptr_t)&arr[1];
    int *back = (int *)addr;
    printf("round trip %d\n", *back);
    uintptr_t next = addr + sizeof(int);
    printf("integer arithmetic on address %d\n", *(int *)next);
    printf("distance in bytes %lu\n", (unsigned long)((uintptr_t)&arr[3] - (uintptr_t)&arr[0]));
    intptr_t sip = (intptr_t)(void *)&arr[2];
    printf("intptr round trip %d\n", *(int *)(void *)sip);
    printf("aligned to int %d\n", (int)(addr % _Alignof(int)));

    void *np = NULL;
    printf("null is zero %d, null == 0 %d\n", (uintptr_t)np == 0, np == 0);
    char *cp = (char *)(void *)arr;
    cp += sizeof(int) * 2;
    printf("char stepping %d\n", *(int *)cp);

    struct { int tag; double val; } rec = {7, 3.5};
    void *rp = &rec;
    printf("first member via cast %d\n", *(int *)rp);
    unsigned char raw[sizeof rec];
    memcpy(raw, &rec, sizeof rec);
    double copy;
    memcpy(&copy, raw + sizeof(double), sizeof copy);
    printf("copied field %.1f size %zu\n", copy, sizeof rec);
    const void *cv = "text";
    printf("const void* string %s\n", (const char *)cv);
    return 0;
}
