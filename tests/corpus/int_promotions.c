// Integer promotions and the usual arithmetic conversions: signed/unsigned comparisons, char and short arithmetic.
#include <stdio.h>

#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wtype-limits"

int main(void) {
    printf("-1 < 1u: %d\n", -1 < 1u);
    printf("-1 < 1: %d\n", -1 < 1);
    printf("-1L < 1u: %d\n", -1L < 1u);
    printf("-1 < 1ul: %d\n", -1 < 1ul);
    printf("-1LL < 1u: %d\n", -1LL < 1u);
    unsigned char uc = 255;
    signed char sc = -1;
    printf("uc == sc: %d\n", uc == sc);
    printf("uc == (unsigned char)sc: %d\n", uc == (unsigned char)sc);
    unsigned short us = 65535;
    short ss = -1;
    printf("us == ss: %d\n", us == ss);
    unsigned u = 0;
    printf("u - 1 > 0: %d\n", u - 1 > 0);
    int i = -1;
    printf("i < sizeof(int): %d\n", i < sizeof(int));
    printf("(int)sizeof > i: %d\n", (int)sizeof(int) > i);

    unsigned char a = 200, b = 100;
    printf("uchar sum promoted %d, truncated %d\n", a + b, (unsigned char)(a + b));
    printf("sizeof(uc + uc) %zu sizeof(uc) %zu\n", sizeof(a + b), sizeof(a));
    char c = 'x';
    printf("sizeof(c) %zu sizeof(+c) %zu sizeof(~c) %zu\n", sizeof c, sizeof(+c), sizeof(~c));
    printf("~uc %d\n", ~a);
    short s1 = 30000, s2 = 30000;
    printf("short sum %d\n", s1 + s2);
    unsigned short m1 = 65535;
    printf("ushort*ushort via unsigned %u\n", (unsigned)m1 * m1);

    unsigned int ui = 5;
    int neg = -10;
    printf("ui + neg = %u\n", ui + neg);
    printf("(int)(ui + neg) = %d\n", (int)(ui + neg));
    long ln = -10;
    printf("ui + long = %ld\n", ui + ln);
    unsigned long ul = 5;
    printf("ul + int = %lu\n", ul + neg);
    printf("neg / ui = %u\n", neg / ui);
    printf("neg %% ui = %u\n", neg % ui);
    printf("neg >> with unsigned: %u\n", (unsigned)neg >> 28);
    printf("mixed long long: %lld\n", 1u + -2LL);
    printf("mixed ull: %llu\n", 1ull + -2);

    float f = 1;
    printf("int/float: %.3f\n", 7 / 2 * f);
    printf("float first: %.3f\n", f * 7 / 2);
    double d = 'A' + 0.5;
    printf("char + double: %.1f\n", d);
    _Bool t = 1;
    printf("bool + bool = %d\n", t + t);
    int cnt = 0;
    for (unsigned char k = 250; k != 4; k++) cnt++;
    printf("uchar loop wraps after %d\n", cnt);
    return 0;
}
