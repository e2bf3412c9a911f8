// ctype.h: classification (isdigit isalpha isalnum isspace isupper islower isxdigit ispunct isprint iscntrl isgraph) and case mapping.
#include <stdio.h>
#include <ctype.h>

static void classify_all(void) {
    const char *names[] = {"digit", "alpha", "alnum", "space", "upper", "lower",
                           "xdigit", "punct", "print", "cntrl", "graph"};
    int counts[11] = {0};
    for (int c = 0; c < 128; c++) {
        counts[0] += !!isdigit(c);
        counts[1] += !!isalpha(c);
        counts[2] += !!isalnum(c);
        counts[3] += !!isspace(c);
        counts[4] += !!isupper(c);
        counts[5] += !!islower(c);
        counts[6] += !!isxdigit(c);
        counts[7] += !!ispunct(c);
        counts[8] += !!isprint(c);
        counts[9] += !!iscntrl(c);
        counts[10] += !!isgraph(c);
    }
    for (int i = 0; i < 11; i++) printf("%s=%d ", names[i], counts[i]);
    putchar('\n');
}

static int hexval(int c) {
    if (isdigit(c)) return c - '0';
    return tolower(c) - 'a' + 10;
}

int main(void) {
    classify_all();
    const char *sample = "Hello, World! 42 \t\x7f~";
    for (const char *p = sample; *p; p++) {
        unsigned char c = (unsigned char)*p;
        printf("%3d %c%c%c%c%c%c%c\n", c, isalpha(c) ? 'A' : '-', isdigit(c) ? 'D' : '-',
               isspace(c) ? 'S' : '-', ispunct(c) ? 'P' : '-', isupper(c) ? 'U' : '-',
               iscntrl(c) ? 'C' : '-', isgraph(c) ? 'G' : '-');
    }
    char text[] = "Mixed CASE text, 123!";
    for (char *p = text; *p; p++) *p = (char)toupper((unsigned char)*p);
    printf("%s\n", text);
    for (char *p = text; *p; p++) *p = (char)tolower((unsigned char)*p);
    printf("%s\n", text);
    printf("toupper of non-letters: %c %c %d\n", toupper('5'), toupper('!'), toupper(200));
    const char *hex = "1aF0";
    unsigned v = 0;
    for (const char *p = hex; *p && isxdigit((unsigned char)*p); p++) v = v * 16 + hexval(*p);
    printf("hex %s = %u\n", hex, v);
    char title[] = "the quick brown fox";
    int start = 1;
    for (char *p = title; *p; p++) {
        if (start && islower((unsigned char)*p)) *p = (char)toupper((unsigned char)*p);
        start = isspace((unsigned char)*p) != 0;
    }
    printf("%s\n", title);
    printf("EOF handled: %d %d\n", isalpha(EOF) != 0, tolower(EOF) == EOF);
    return 0;
}
