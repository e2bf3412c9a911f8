// stdin: fgets line reading with a small buffer (long lines arrive in pieces), trimming, numbering, fgetc/getc.
// RUN: stdin=stdin_fgets.1.in
// RUN: stdin="single line without newline"
// RUN: stdin=""
#include <stdio.h>
#include <string.h>

int main(void) {
    char buf[16];
    int pieces = 0, lines = 0;
    size_t longest = 0, current = 0;
    int first = getc(stdin);
    if (first == EOF) {
        printf("empty input\n");
        return 0;
    }
    printf("first char '%c'\n", first);
    ungetc(first, stdin);
    while (fgets(buf, sizeof buf, stdin)) {
        pieces++;
        size_t len = strlen(buf);
        current += len;
        int complete = len > 0 && buf[len - 1] == '\n';
        if (complete) {
            buf[--len] = '\0';
            current--;
        }
        while (len > 0 && (buf[len - 1] == ' ' || buf[len - 1] == '\r')) buf[--len] = '\0';
        printf("%2d%c[%s]\n", pieces, complete ? '.' : '+', buf);
        if (complete) {
            lines++;
            if (current > longest) longest = current;
            current = 0;
        }
    }
    if (current > 0) lines++;
    if (current > longest) longest = current;
    printf("pieces %d lines %d longest %zu\n", pieces, lines, longest);
    printf("fgets at EOF returns NULL: %d\n", fgets(buf, sizeof buf, stdin) == NULL);
    printf("fgetc at EOF: %d\n", fgetc(stdin) == EOF);
    return 0;
}
