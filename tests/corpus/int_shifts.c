// Shifts: left and right shifts across widths, arithmetic right shift of negatives, shift counts from variables.
#include <stdio.h>
#include <stdint.h>

static unsigned long long pack(unsigned a, unsigned b) {
    return ((unsigned long long)a << 32) | b;
}

int main(void) {
    for (int k = 0; k < 32; k += 5)
        printf("1<<%d = %u\n", k, 1u << k);
    int n = -256;
    for (int k = 0; k <= 12; k += 3)
        printf("-256>>%d = %d\n", k, n >> k);
    unsigned un = (unsigned)n;
    printf("(unsigned)-256 >> 4 = %u\n", un >> 4);
    long long big = 1;
    big <<= 62;
    printf("1<<62 = %lld\n", big);
    printf("llong shift right: %lld\n", -big >> 60);
    unsigned long long p = pack(0xDEADBEEFu, 0x12345678u);
    printf("pack %llx hi %x lo %x\n", p, (unsigned)(p >> 32), (unsigned)p);
    unsigned char c = 0x81;
    printf("uchar<<1 = %d, (uchar)(c<<1) = %d\n", c << 1, (unsigned char)(c << 1));
    signed char sc = -128;
    printf("schar>>7 = %d\n", sc >> 7);
    short sh = -1;
    printf("short>>15 = %d, (ushort)sh>>15 = %d\n", sh >> 15, (unsigned short)sh >> 15);
    uint32_t x = 0x89ABCDEF;
    printf("bytes:");
    for (int k = 24; k >= 0; k -= 8) printf(" %02x", (x >> k) & 0xFF);
    putchar('\n');
    int count = 0;
    for (uint64_t v = 1; v; v <<= 1) count++;
    printf("bits in uint64: %d\n", count);
    int amount = 3;
    long lv = 1000;
    printf("long << var: %ld, >>: %ld\n", lv << amount, lv >> amount);
    unsigned mask = ~0u >> (32 - 12);
    printf("low 12 mask %#x\n", mask);
    int sh_by_long = 1 << 3L;
    printf("shift count of long type: %d\n", sh_by_long);
    unsigned long long ones = ~0ull;
    printf("ones >> 63 = %llu, ones << 63 = %llx\n", ones >> 63, ones << 63);
    printf("-1 >> 31 = %d\n", -1 >> 31);
    printf("INT_MIN >> 31 = %d\n", (int)0x80000000 >> 31);
    return 0;
}
