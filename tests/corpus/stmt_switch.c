// Statements: switch with fallthrough, default in the middle, nested switch, char and negative cases.
#include <stdio.h>

static int days(int month) {
    switch (month) {
    case 2:
        return 28;
    case 4: case 6: case 9: case 11:
        return 30;
    default:
        return 31;
    }
}

static void fall(int n) {
    printf("fall(%d):", n);
    switch (n) {
    case 0: printf(" zero"); /* fall through */
    case 1: printf(" one"); /* fall through */
    default: printf(" default"); /* fall through */
    case 2: printf(" two"); break;
    case 3: printf(" three");
    }
    putchar('\n');
}

static const char *nested(int a, int b) {
    switch (a) {
    case 0:
        switch (b) {
        case 0: return "0/0";
        case 1: return "0/1";
        }
        return "0/other";
    case 1:
        switch (b) {
        default: return "1/any";
        }
    case -1:
        return "minus one";
    }
    return "none";
}

int main(void) {
    for (int m = 1; m <= 12; m++) printf("%d ", days(m));
    putchar('\n');
    for (int n = 0; n < 5; n++) fall(n);
    printf("%s %s %s %s %s %s\n", nested(0, 0), nested(0, 1), nested(0, 5), nested(1, 9),
           nested(-1, 0), nested(7, 7));

    const char *s = "a1 b?Z";
    int letters = 0, digits = 0, spaces = 0, other = 0;
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case 'a': case 'b': case 'Z': letters++; break;
        case '0': case '1': case '2': digits++; break;
        case ' ': spaces++; break;
        default: other++;
        }
    }
    printf("letters %d digits %d spaces %d other %d\n", letters, digits, spaces, other);

    long big = 3000000000L;
    switch (big) {
    case 3000000000L: puts("long case"); break;
    default: puts("long default");
    }

    int x = 5, acc = 0;
    switch (x) {
    case 4:
        acc = 100;
        /* fall through */
    case 5:
        acc += 5;
        {
            int y = 2;
            acc *= y;
        }
        /* fall through */
    case 6:
        acc += 1;
    }
    printf("acc %d\n", acc);

    switch (x) { }
    /* Was `switch (x) default: puts(...);` (a body without braces): valid C, but
       tree-sitter-c cannot parse a switch body that is not a compound statement. */
    switch (x) { default: puts("lone default"); }
    return 0;
}
