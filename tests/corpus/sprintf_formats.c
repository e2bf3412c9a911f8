// Formatted output into buffers: sprintf and snprintf (truncation, return values), integer formats, widths, flags.
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wformat-truncation"

int main(void) {
    char buf[128];
    int n = sprintf(buf, "%d|%i|%u|%o|%x|%X|%c|%%", -42, 42, 42u, 42, 255, 255, 'A');
    printf("%s (%d)\n", buf, n);
    sprintf(buf, "[%5d][%-5d][%05d][%+d][% d][%+d]", 42, 42, 42, 42, 42, -42);
    puts(buf);
    sprintf(buf, "[%#x][%#o][%#X][%8.3x][%.0d][%.3d]", 255, 8, 255, 0xab, 0, 7);
    puts(buf);
    sprintf(buf, "[%ld][%lu][%lld][%llu][%lx]", -1L, 4294967296UL, -9223372036854775807LL - 1,
            18446744073709551615ULL, 0xdeadbeefcafeUL);
    puts(buf);
    sprintf(buf, "[%hd][%hu][%hhd][%hhu][%zu][%td]", (short)-1, (unsigned short)65535,
            (signed char)-128, (unsigned char)255, sizeof(long), (ptrdiff_t)-3);
    puts(buf);
    sprintf(buf, "[%s][%10s][%-10s][%.3s][%*s][%-*.*s]", "str", "right", "left", "truncate", 6,
            "w", 7, 2, "precision");
    puts(buf);
    sprintf(buf, "[%c%c%c][%5c][%-3c]", 'a', 98, '\x63', 'x', 'y');
    puts(buf);

    char small[8];
    int want = snprintf(small, sizeof small, "%s", "0123456789");
    printf("snprintf wanted %d got '%s' len %zu\n", want, small, strlen(small));
    want = snprintf(small, sizeof small, "%d", 1234567);
    printf("exact fit %d '%s'\n", want, small);
    want = snprintf(NULL, 0, "%d-%s-%.2f", 123, "abc", 3.14159);
    printf("size query %d\n", want);
    want = snprintf(small, 1, "%s", "anything");
    printf("size 1 gives empty '%s' return %d\n", small, want);

    char table[256] = "";
    size_t used = 0;
    for (int i = 1; i <= 5; i++)
        used += snprintf(table + used, sizeof table - used, "%-3d%6.2f%5s\n", i, 1.0 / i,
                         i % 2 ? "odd" : "even");
    fputs(table, stdout);
    printf("table length %zu\n", used);
    char num[32];
    long long vals[] = {0, 1, -1, 1000000, -2147483648LL, 9999999999LL};
    for (int i = 0; i < 6; i++) {
        int len = sprintf(num, "%lld", vals[i]);
        printf("%s:%d ", num, len);
    }
    putchar('\n');
    sprintf(buf, "%s", "");
    printf("empty string length %zu\n", strlen(buf));
    return 0;
}
