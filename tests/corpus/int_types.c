// Integer types: sizes and limits of char/short/int/long/long long, signed and unsigned, and _Bool.
#include <stdio.h>
#include <limits.h>
#include <stdint.h>

#pragma GCC diagnostic ignored "-Wbool-operation"

int main(void) {
    printf("sizes: %zu %zu %zu %zu %zu %zu\n", sizeof(char), sizeof(short), sizeof(int),
           sizeof(long), sizeof(long long), sizeof(_Bool));
    printf("char %d..%d uchar ..%d\n", SCHAR_MIN, SCHAR_MAX, UCHAR_MAX);
    printf("short %d..%d ushort ..%d\n", SHRT_MIN, SHRT_MAX, USHRT_MAX);
    printf("int %d..%d uint ..%u\n", INT_MIN, INT_MAX, UINT_MAX);
    printf("long %ld..%ld ulong ..%lu\n", LONG_MIN, LONG_MAX, ULONG_MAX);
    printf("llong %lld..%lld ullong ..%llu\n", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
    printf("char is signed: %d\n", (char)-1 < 0);

    int8_t i8 = -128;
    uint8_t u8 = 255;
    int16_t i16 = -32768;
    uint16_t u16 = 65535;
    int32_t i32 = INT32_MIN;
    uint32_t u32 = UINT32_MAX;
    int64_t i64 = INT64_MIN;
    uint64_t u64 = UINT64_MAX;
    printf("%d %d %d %d\n", i8, u8, i16, u16);
    printf("%d %u %lld %llu\n", i32, u32, (long long)i64, (unsigned long long)u64);

    _Bool b0 = 0, b1 = 5, b2 = -1, b3 = 0.25;
    printf("bools %d %d %d %d\n", b0, b1, b2, b3);
    _Bool bsum = b1 + b2;
    printf("bool sum %d, int sum %d\n", bsum, b1 + b2);
    _Bool bt = 1;
    bt++;
    printf("bool after ++ %d\n", bt);
    bt = 0;
    bt--;
    printf("bool after -- %d\n", bt);
    unsigned long long mask = 1ull << 40;
    _Bool fromwide = mask;
    printf("bool from 1<<40: %d, int from 1<<40: %d\n", fromwide, (int)mask);

    char c = 'A';
    short s = c + 1;
    long l = s * 100000L;
    long long ll = l * l;
    printf("%c %d %ld %lld\n", c, s, l, ll);
    unsigned short us = 50000;
    int prod = us * us;
    printf("ushort*ushort as int (wraps) %d\n", prod);
    unsigned up = (unsigned)us * us;
    printf("as unsigned %u\n", up);
    printf("literals: %zu %zu %zu %zu %zu\n", sizeof 1, sizeof 1L, sizeof 1u, sizeof 1LL,
           sizeof 'a');
    printf("hex/oct: %d %d %u %lld\n", 0x7f, 0777, 0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFLL);
    printf("type of big literal: %zu %zu\n", sizeof 2147483648, sizeof 0x80000000);
    return 0;
}
