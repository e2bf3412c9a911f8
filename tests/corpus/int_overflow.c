// Integer overflow: unsigned wraparound at every width and signed wrapping (defined under -fwrapv).
#include <stdio.h>
#include <limits.h>

static unsigned hash_str(const char *s) {
    unsigned h = 2166136261u;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 16777619u;
    }
    return h;
}

int main(void) {
    unsigned u = UINT_MAX;
    u++;
    printf("uint max+1 = %u\n", u);
    u--;
    printf("0-1 = %u\n", u);
    unsigned char uc = 200;
    uc = uc * 2;
    printf("uchar 200*2 = %d\n", uc);
    unsigned short us = 0;
    us -= 1;
    printf("ushort 0-1 = %d\n", us);
    unsigned long ul = 0;
    ul--;
    printf("ulong 0-1 = %lu\n", ul);
    unsigned long long ull = 1ull << 63;
    ull *= 2;
    printf("ullong 2^63*2 = %llu\n", ull);

    int i = INT_MAX;
    i++;
    printf("int max+1 = %d\n", i);
    i = INT_MIN;
    i--;
    printf("int min-1 = %d\n", i);
    int m = INT_MIN;
    printf("-INT_MIN = %d\n", -m);
    int big = 100000;
    printf("100000^2 = %d\n", big * big);
    long lm = LONG_MAX;
    lm += 1;
    printf("long max+1 = %ld\n", lm);
    long long llm = LLONG_MIN;
    llm -= 1;
    printf("llong min-1 = %lld\n", llm);

    int f = 1;
    for (int k = 1; k <= 20; k++) f *= k;
    printf("20! as int = %d\n", f);
    unsigned fu = 1;
    for (unsigned k = 1; k <= 20; k++) fu *= k;
    printf("20! as unsigned = %u\n", fu);
    long long fl = 1;
    for (int k = 1; k <= 25; k++) fl *= k;
    printf("25! as long long = %lld\n", fl);

    printf("fnv %u %u\n", hash_str("hello"), hash_str("ripple"));
    unsigned a = 3000000000u, b = 2000000000u;
    printf("sum %u diff %u\n", a + b, b - a);
    unsigned x = 7;
    printf("negate unsigned %u\n", -x);
    int lcg = 12345;
    for (int k = 0; k < 5; k++) {
        lcg = lcg * 1103515245 + 12345;
        printf("%d ", lcg);
    }
    putchar('\n');
    return 0;
}
