#include <stdio.h>

static char buf[4] = "ab";

/* Reads the string literal it is given. */
static int first(const char *s) { return s[0]; }

int main(int argc, char **argv) {
    const char *msg = "xy";
    char *p = argc > 5 ? (char *)msg : buf; /* with argc > 5 the store is undefined */
    p[0] = 'a';
    printf("%d\n", first(msg));
    printf("%s %s\n", buf, argv[0] ? "" : "?");
    return 0;
}
