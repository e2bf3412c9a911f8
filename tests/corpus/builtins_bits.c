// Bit-count and byte-swap builtins (clz, ctz, popcount, parity, ffs, clrsb, bswap) on boundary values and a sweep
#include <limits.h>
#include <stdio.h>

static const unsigned u32s[] = {1u, 2u, 3u, 0x80u, 0xf0u, 0x10000u, 0x12345678u,
                                0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
static const unsigned long long u64s[] = {1ull, 0xffull, 0x100000000ull, 0x123456789abcdef0ull,
                                          0x7fffffffffffffffull, 0x8000000000000000ull,
                                          0xfffffffffffffffeull, 0xffffffffffffffffull};
static const int i32s[] = {0, 1, -1, 2, -2, 127, -128, INT_MAX, INT_MIN, 0x00ff0000};
static const long long i64s[] = {0, 1, -1, LLONG_MAX, LLONG_MIN, 0x100000000ll, -0x100000000ll};

/* Constant operands fold: these are integer constant expressions for gcc. */
enum { K_POP = __builtin_popcount(0xf0f0u), K_CLZ = __builtin_clz(1u), K_CTZ = __builtin_ctzll(1ull << 40) };
static const unsigned short k_swap = __builtin_bswap16(0x1234);

struct word { unsigned long long v; };

int main(void) {
    unsigned i;
    printf("const %d %d %d %04x\n", K_POP, K_CLZ, K_CTZ, k_swap);
    for (i = 0; i < sizeof u32s / sizeof u32s[0]; i++) {
        unsigned x = u32s[i];
        printf("u32 %08x clz %d ctz %d pop %d par %d ffs %d bswap %08x\n", x, __builtin_clz(x),
               __builtin_ctz(x), __builtin_popcount(x), __builtin_parity(x), __builtin_ffs((int)x),
               __builtin_bswap32(x));
    }
    printf("zero pop %d par %d ffs %d %d %d\n", __builtin_popcount(0u), __builtin_parity(0u),
           __builtin_ffs(0), __builtin_ffsl(0), __builtin_ffsll(0));
    for (i = 0; i < sizeof u64s / sizeof u64s[0]; i++) {
        unsigned long long x = u64s[i];
        printf("u64 %016llx clz %d %d ctz %d %d pop %d %d par %d %d ffs %d %d bswap %016llx\n", x,
               __builtin_clzll(x), __builtin_clzl((unsigned long)x), __builtin_ctzll(x),
               __builtin_ctzl((unsigned long)x), __builtin_popcountll(x),
               __builtin_popcountl((unsigned long)x), __builtin_parityll(x),
               __builtin_parityl((unsigned long)x), __builtin_ffsll((long long)x),
               __builtin_ffsl((long)x), (unsigned long long)__builtin_bswap64(x));
    }
    for (i = 0; i < sizeof i32s / sizeof i32s[0]; i++)
        printf("i32 %d clrsb %d ffs %d bswap16 %04x\n", i32s[i], __builtin_clrsb(i32s[i]),
               __builtin_ffs(i32s[i]), __builtin_bswap16((unsigned short)i32s[i]));
    for (i = 0; i < sizeof i64s / sizeof i64s[0]; i++)
        printf("i64 %lld clrsb %d %d\n", i64s[i], __builtin_clrsbll(i64s[i]),
               __builtin_clrsbl((long)i64s[i]));
    /* Narrow and signed operands convert to the builtin's parameter type. */
    {
        signed char c = -1;
        unsigned char uc = 0x80;
        short s = -32768;
        printf("narrow %d %d %d %d %d %08x\n", __builtin_popcount(c), __builtin_popcount(uc),
               __builtin_clz(uc), __builtin_ctz(s), __builtin_clrsb(c), __builtin_bswap32(s));
    }
    /* Operands with effects and from memory are evaluated once. */
    {
        struct word w = {0x00ff00ff00ff00ffull};
        unsigned long long *p = &w.v;
        int n = 0;
        int pops = __builtin_popcountll(*p++) + n++;
        printf("once %d %d %d\n", pops, n, p == &w.v + 1);
    }
    /* A sweep of pseudo-random values, checked against loops. */
    {
        unsigned long long x = 0x9e3779b97f4a7c15ull, sum = 0;
        int bad = 0, k;
        for (i = 0; i < 2000; i++) {
            int pop = 0, clz = 0, ctz = 0;
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            unsigned long long y = x >> (i % 64);
            if (y == 0)
                y = 1;
            for (k = 0; k < 64; k++)
                pop += (int)((y >> k) & 1);
            for (k = 63; k >= 0 && !((y >> k) & 1); k--)
                clz++;
            for (k = 0; k < 64 && !((y >> k) & 1); k++)
                ctz++;
            bad += pop != __builtin_popcountll(y) || clz != __builtin_clzll(y) ||
                   ctz != __builtin_ctzll(y) || (pop & 1) != __builtin_parityll(y);
            sum = sum * 31 + (unsigned long long)__builtin_clrsbll((long long)y) +
                  __builtin_bswap64(y) + __builtin_bswap32((unsigned)y) +
                  (unsigned)__builtin_clz((unsigned)y | 1u) + (unsigned)__builtin_ffsll((long long)(y << 7));
        }
        printf("sweep bad %d sum %016llx\n", bad, sum);
    }
    return 0;
}
