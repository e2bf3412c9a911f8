// Overflow-checking builtins (add/sub/mul, the _p and typed forms) for mixed operand and result types
#include <limits.h>
#include <stdio.h>

static const long long vals[] = {0, 1, -1, 2, -2, 127, 128, -129, 255, 256, 32767, -32768, 65535,
                                 INT_MAX, INT_MIN, UINT_MAX, 0x100000000ll, LLONG_MAX, LLONG_MIN};
#define NV (int)(sizeof vals / sizeof vals[0])
static const unsigned long long uvals[] = {0, 1, 0xffffffffull, 0x100000000ull, 0x7fffffffffffffffull,
                                           0x8000000000000000ull, 0xffffffffffffffffull};
#define NU (int)(sizeof uvals / sizeof uvals[0])

static unsigned long long h = 1469598103934665603ull;
static void mix(unsigned long long v) { h = (h ^ v) * 1099511628211ull; }

struct bits { int s5 : 5; unsigned u3 : 3; };

int main(void) {
    int i, j;
    for (i = 0; i < NV; i++)
        for (j = 0; j < NV; j++) {
            long long a = vals[i], b = vals[j];
            int ri; unsigned ru; signed char sc; unsigned char uc; short ss; long long rl;
            unsigned long long rul;
            mix(__builtin_add_overflow(a, b, &ri)); mix((unsigned)ri);
            mix(__builtin_sub_overflow(a, b, &ru)); mix(ru);
            mix(__builtin_mul_overflow(a, b, &sc)); mix((unsigned char)sc);
            mix(__builtin_add_overflow((int)a, (unsigned)b, &uc)); mix(uc);
            mix(__builtin_mul_overflow((short)a, (unsigned char)b, &ss)); mix((unsigned short)ss);
            mix(__builtin_mul_overflow(a, b, &rl)); mix((unsigned long long)rl);
            mix(__builtin_sub_overflow(a, (unsigned long long)b, &rul)); mix(rul);
            mix(__builtin_mul_overflow_p(a, b, (int)0));
            mix(__builtin_add_overflow_p((unsigned)a, b, (unsigned short)0));
        }
    printf("signed mixes %016llx\n", h);
    for (i = 0; i < NU; i++)
        for (j = 0; j < NU; j++) {
            unsigned long long a = uvals[i], b = uvals[j], ru;
            long long rs;
            unsigned r32;
            mix(__builtin_mul_overflow(a, b, &ru)); mix(ru);
            mix(__builtin_mul_overflow(a, b, &rs)); mix((unsigned long long)rs);
            mix(__builtin_add_overflow(a, b, &ru)); mix(ru);
            mix(__builtin_sub_overflow(a, b, &rs)); mix((unsigned long long)rs);
            mix(__builtin_mul_overflow(a, (long long)b, &rs)); mix((unsigned long long)rs);
            mix(__builtin_add_overflow(a, b, &r32)); mix(r32);
            if (i == NU - 1) {
                int o = __builtin_mul_overflow(a, b, &ru);
                printf("max*%016llx: %d %016llx\n", b, o, ru);
            }
        }
    printf("unsigned mixes %016llx\n", h);
    {
        int r;
        long lr;
        long long llr;
        unsigned ur;
        unsigned long ulr;
        unsigned long long ullr;
        int o;
        o = __builtin_sadd_overflow(INT_MAX, 1, &r); printf("sadd %d %d\n", o, r);
        o = __builtin_ssub_overflow(INT_MIN, 1, &r); printf("ssub %d %d\n", o, r);
        o = __builtin_smul_overflow(65536, 65536, &r); printf("smul %d %d\n", o, r);
        o = __builtin_saddl_overflow(LONG_MAX, 1, &lr); printf("saddl %d %ld\n", o, lr);
        o = __builtin_smulll_overflow(LLONG_MIN, -1, &llr); printf("smulll %d %lld\n", o, llr);
        o = __builtin_ssubll_overflow(0, LLONG_MIN, &llr); printf("ssubll %d %lld\n", o, llr);
        o = __builtin_uadd_overflow(UINT_MAX, 1, &ur); printf("uadd %d %u\n", o, ur);
        o = __builtin_usub_overflow(0, 1, &ur); printf("usub %d %u\n", o, ur);
        o = __builtin_umull_overflow(1ul << 32, 1ul << 32, &ulr); printf("umull %d %lu\n", o, ulr);
        o = __builtin_uaddll_overflow(1, 2, &ullr); printf("uaddll %d %llu\n", o, ullr);
        o = __builtin_umulll_overflow(3, 5, &ullr); printf("umulll %d %llu\n", o, ullr);
    }
    {
        struct bits b = {0, 0};
        int n = 0, r = 0, *p = &r;
        /* The destination is written even on overflow; operands are evaluated once. */
        int o = __builtin_add_overflow(n++, INT_MAX, p++);
        printf("once %d %d %d %d\n", o, n, r, p == &r + 1);
        o = __builtin_add_overflow(r, 1, &r);
        printf("alias %d %d\n", o, r);
        printf("bitfield %d %d %d %d\n", __builtin_add_overflow_p(15, 0, b.s5),
               __builtin_add_overflow_p(15, 1, b.s5), __builtin_mul_overflow_p(7, 1, b.u3),
               __builtin_mul_overflow_p(4, 2, b.u3));
        {
            unsigned __int128 w;
            __int128 sw;
            o = __builtin_sub_overflow(0, 1, &w);
            printf("u128 %d %016llx%016llx\n", o, (unsigned long long)(w >> 64), (unsigned long long)w);
            o = __builtin_mul_overflow(ULLONG_MAX, ULLONG_MAX, &sw);
            printf("i128 %d %016llx\n", o, (unsigned long long)(sw >> 64));
        }
        if (__builtin_mul_overflow(n, 1000000000, &r))
            printf("no overflow expected\n");
        else
            printf("fits %d\n", r);
    }
    return 0;
}
