// Integer conversions: explicit and implicit casts, truncation, sign and zero extension, float-to-int.
#include <stdio.h>

int main(void) {
    int big = 0x12345678;
    printf("trunc: %d %d %hd\n", (char)big, (unsigned char)big, (short)big);
    printf("trunc2: %d %u\n", (signed char)0x1FF, (unsigned short)-1);
    signed char sc = -5;
    unsigned char uc = (unsigned char)sc;
    printf("sc->uc %d, uc->int %d, sc->unsigned %u\n", uc, (int)uc, (unsigned)sc);
    printf("sc->ulong %lu\n", (unsigned long)sc);
    unsigned char uc2 = 0xF0;
    printf("uc->schar %d\n", (signed char)uc2);
    short s = -2;
    unsigned short us = s;
    printf("short->ushort %u, back %d\n", us, (short)us);
    long long ll = -1;
    unsigned int ui = (unsigned int)ll;
    printf("ll->ui %u\n", ui);
    unsigned int x = 0xFFFFFFFF;
    long long lx = x;
    long long sx = (int)x;
    printf("zero ext %lld sign ext %lld\n", lx, sx);
    unsigned long long huge = 0x123456789ABCDEFull;
    printf("ull->u %x ull->uchar %x ull->short %hx\n", (unsigned)huge, (unsigned char)huge,
           (short)huge);

    double d = 3.99;
    printf("double->int %d %d %d\n", (int)d, (int)-d, (int)0.5);
    double big_d = 3e9;
    printf("double->uint %u double->ll %lld\n", (unsigned)big_d, (long long)big_d);
    printf("int->double %.1f %.1f\n", (double)2147483647, (double)-7);
    float f = 16777217;
    printf("int->float loses: %.1f\n", f);
    double dd = 9007199254740993LL;
    printf("ll->double loses: %.1f\n", dd);
    printf("char arith: %d\n", (char)('z' - 'a' + 'A'));
    printf("neg double to uchar via int: %d\n", (unsigned char)(int)-3.7);

    int vals[] = {-1, 0, 127, 128, 255, 256, -129};
    for (int i = 0; i < 7; i++)
        printf("[%d -> sc %d uc %d] ", vals[i], (signed char)vals[i], (unsigned char)vals[i]);
    putchar('\n');

    _Bool b = (_Bool)256;
    char c = (char)256;
    printf("bool(256)=%d char(256)=%d\n", b, c);
    long l = (long)(unsigned)-1;
    printf("long of uint -1: %ld\n", l);
    int fromu = (int)4294967295u;
    printf("int of uint max: %d\n", fromu);
    return 0;
}
