// stdin: scanf of ints, doubles, strings and chars, return values, EOF handling, and sscanf on a buffer.
// RUN: stdin=stdin_scanf.1.in
// RUN: stdin="3\n1 2.5 x\n2 -1e2 yy\n"
// RUN: stdin="2\n7 oops\n"
#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) {
        printf("no count\n");
        return 1;
    }
    printf("expecting %d records\n", n);
    double total = 0;
    int ok = 0;
    for (int i = 0; i < n; i++) {
        int id;
        double value;
        char name[32];
        int got = scanf("%d %lf %31s", &id, &value, name);
        if (got != 3) {
            printf("record %d: only %d fields\n", i, got);
            break;
        }
        printf("id=%d value=%.3f name=%s\n", id, value, name);
        total += value;
        ok++;
    }
    printf("ok %d total %.3f\n", ok, total);
    long big;
    unsigned hex;
    char ch;
    int r = scanf(" %ld %x %c", &big, &hex, &ch);
    if (r == 3) printf("tail: %ld %u '%c'\n", big, hex, ch);
    else printf("tail fields %d\n", r);
    int extra;
    printf("at end: %d\n", scanf("%d", &extra));

    const char *line = "2024-01-31 temp=-4.5C label:alpha,beta";
    int y, m, d;
    double t;
    char label[16], rest[16];
    int got = sscanf(line, "%d-%d-%d temp=%lfC label:%15[^,],%15s", &y, &m, &d, &t, label, rest);
    printf("sscanf %d: %04d/%02d/%02d %.1f %s %s\n", got, y, m, d, t, label, rest);
    int consumed = 0, a = 0;
    sscanf("  123abc", "%d%n", &a, &consumed);
    printf("a=%d consumed=%d\n", a, consumed);
    return ok == n ? 0 : 2;
}
