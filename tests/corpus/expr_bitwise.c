// Expressions: bitwise and, or, xor, not, shifts, masks and bit tricks on signed and unsigned values.
#include <stdio.h>

#pragma GCC diagnostic ignored "-Wparentheses"

static int popcount(unsigned x) {
    int n = 0;
    while (x) {
        x &= x - 1;
        n++;
    }
    return n;
}

static unsigned reverse_bits(unsigned x) {
    unsigned r = 0;
    for (int i = 0; i < 32; i++) {
        r = (r << 1) | (x & 1u);
        x >>= 1;
    }
    return r;
}

static unsigned rotl(unsigned x, int k) { return (x << k) | (x >> (32 - k)); }

int main(void) {
    unsigned a = 0xF0F0u, b = 0x0FF0u;
    printf("%x %x %x %x\n", a & b, a | b, a ^ b, ~a);
    int s = -8;
    printf("signed: %d %d %d %d\n", s & 7, s | 3, s ^ -1, ~s);
    printf("shift: %d %d %u %u\n", 1 << 10, s >> 1, 0x80000000u >> 31, 1u << 31);
    printf("neg shift right: %d %d\n", -1 >> 5, -100 >> 3);
    printf("popcount %d %d %d\n", popcount(0), popcount(0xFFu), popcount(0xDEADBEEFu));
    printf("reverse %08x\n", reverse_bits(0x12345678u));
    printf("rotl %08x %08x\n", rotl(0x80000001u, 1), rotl(0x12345678u, 8));
    unsigned flags = 0;
    flags |= 1u << 3;
    flags |= 1u << 5;
    flags &= ~(1u << 3);
    flags ^= 0xFu;
    printf("flags %#x set5=%d set3=%d\n", flags, (flags >> 5) & 1, !!(flags & (1u << 3)));
    printf("lowest bit of 40: %d\n", 40 & -40);
    printf("is pow2: %d %d\n", (64 & 63) == 0, (96 & 95) == 0);
    unsigned long long big = 0xFFFFFFFFFFFFFFFFull;
    printf("ull %llx %llx %llu\n", big >> 4, big << 60, big & 0xFF);
    long ln = -1L;
    printf("long shift %ld %lx\n", ln >> 40, (unsigned long)ln >> 40);
    unsigned char uc = 0xAB;
    printf("uchar ops %d %d %d\n", uc << 4, ~uc, (unsigned char)~uc);
    printf("precedence %d %d\n", 1 | 2 ^ 3 & 4, (1 | 2) ^ (3 & 4));
    printf("shift prec %d %d\n", 1 << 2 + 1, (1 << 2) + 1);
    int x = 0x1234;
    int swapped = ((x & 0xFF) << 8) | ((x >> 8) & 0xFF);
    printf("byte swap %#06x\n", swapped);
    return 0;
}
