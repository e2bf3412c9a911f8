// Output functions: puts, putchar, fputs, fputc, putc, fwrite, fprintf to stdout and stderr, fflush, printf return values.
#include <stdio.h>
#include <string.h>

struct rec {
    char tag[4];
    char text[8];
};

int main(void) {
    puts("puts adds a newline");
    puts("");
    fputs("fputs does not", stdout);
    fputs(" add one\n", stdout);
    putchar('p');
    putchar('u');
    putchar('t');
    putchar('\n');
    fputc('f', stdout);
    putc('c', stdout);
    putc('\n', stdout);
    const char *data = "fwrite writes exactly n bytes\n";
    size_t w = fwrite(data, 1, strlen(data), stdout);
    printf("fwrite returned %zu\n", w);
    fwrite("abcdef", 2, 3, stdout);
    putchar('\n');
    struct rec recs[2] = {{"r1:", "first\n"}, {"r2:", "second\n"}};
    for (int i = 0; i < 2; i++) {
        fwrite(recs[i].tag, 1, 3, stdout);
        fwrite(recs[i].text, 1, strlen(recs[i].text), stdout);
    }
    fprintf(stdout, "fprintf to stdout %d\n", 1);
    fprintf(stderr, "fprintf to stderr is not compared %d\n", 2);
    fputs("stderr line\n", stderr);
    fflush(stdout);
    int n = printf("counting: %s %d\n", "abc", 12345);
    printf("previous printf returned %d\n", n);
    n = printf("%s", "");
    printf("empty printf returned %d\n", n);
    int r = putchar('X');
    printf(" putchar returned %d\n", r);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j <= i; j++) putchar('*');
        putchar('\n');
    }
    char bin[] = {'b', 'i', 'n', 0, 'a', 'r', 'y', '\n'};
    fwrite(bin, 1, sizeof bin, stdout);
    unsigned char high[] = {0xC3, 0xA9, 0x0A};
    fwrite(high, 1, 3, stdout);
    putchar(0xE9);
    putchar('\n');
    printf("%s", "no newline at the end");
    return 0;
}
