// String-to-number conversion: strtol/strtoul/strtoll/strtoull with bases and end pointers, strtod, atof, atoi, atol, atoll.
#include <stdio.h>
#include <stdlib.h>

static void show_strtol(const char *s, int base) {
    char *end;
    long v = strtol(s, &end, base);
    printf("strtol(\"%s\", %d) = %ld, rest \"%s\"\n", s, base, v, end);
}

int main(void) {
    show_strtol("12345", 10);
    show_strtol("   -42xyz", 10);
    show_strtol("0x1F", 16);
    show_strtol("0x1F", 0);
    show_strtol("0755", 0);
    show_strtol("755", 8);
    show_strtol("1011", 2);
    show_strtol("zz", 36);
    show_strtol("+17", 10);
    show_strtol("abc", 10);
    show_strtol("", 10);
    char *end;
    unsigned long ul = strtoul("4294967296", &end, 10);
    printf("strtoul %lu\n", ul);
    ul = strtoul("ffffffffffffffff", &end, 16);
    printf("strtoul hex %lu\n", ul);
    long long ll = strtoll("-9223372036854775807", &end, 10);
    printf("strtoll %lld\n", ll);
    unsigned long long ull = strtoull("18446744073709551615", &end, 10);
    printf("strtoull %llu\n", ull);
    const char *list = "10 20 -30 0x40 end";
    const char *p = list;
    long sum = 0;
    for (;;) {
        long v = strtol(p, &end, 0);
        if (end == p) break;
        sum += v;
        p = end;
    }
    printf("sum of list %ld, stopped at \"%s\"\n", sum, p);
    const char *doubles[] = {"3.14159", "-2.5e3", "  1e-3xyz", ".5", "inf", "abc", "12.", "-0.0"};
    for (int i = 0; i < 8; i++) {
        double d = strtod(doubles[i], &end);
        printf("strtod(\"%s\") = %g rest \"%s\"\n", doubles[i], d, end);
    }
    printf("atof %.4f %.4f\n", atof("2.71828"), atof("-0.5abc"));
    printf("atoi %d %d %d\n", atoi("123"), atoi("  -77 "), atoi("9lives"));
    printf("atol %ld atoll %lld\n", atol("2147483648"), atoll("-1234567890123"));
    double total = 0;
    const char *csv = "1.5,2.25,-0.75,10";
    const char *q = csv;
    while (*q) {
        total += strtod(q, &end);
        q = *end == ',' ? end + 1 : end;
        if (end == q && *q) break;
    }
    printf("csv total %.2f\n", total);
    return 0;
}
