// Exit codes: the value returned from main selected by an argument, including large and negative values.
// RUN: args=0
// RUN: args=1
// RUN: args=42
// RUN: args=255
// RUN: args=256
// RUN: args=300
// RUN: args=-1
#include <stdio.h>
#include <stdlib.h>

static int checksum(const char *s) {
    int h = 0;
    while (*s) h = h * 7 + *s++;
    return h;
}

static int classify(int code) {
    if (code < 0) return -1;
    if (code == 0) return 0;
    if (code < 256) return 1;
    return 2;
}

int main(int argc, char *argv[]) {
    if (argc < 2) {
        puts("usage: exit_codes CODE");
        return 2;
    }
    int code = atoi(argv[1]);
    static const char *kinds[] = {"negative", "zero", "in range", "wraps"};
    printf("requested %d (%s)\n", code, kinds[classify(code) + 1]);
    printf("checksum of arg %d\n", checksum(argv[1]));
    printf("status seen by the parent: %d\n", code & 0xFF);
    fflush(stdout);
    return code;
}
