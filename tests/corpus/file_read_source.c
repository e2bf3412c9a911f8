// Files: fopen of an existing file (the program's own source, by __FILE__) and of a missing one (NULL, errno ENOENT); fgets, getc, fread, fseek/ftell, feof, fclose.
// RUN:
// RUN: args=no/such/dir/input.txt
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The source of this program ends with this line: keep it last. */
static const char last_line[] = "/* end of file_read_source.c */\n";

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : __FILE__;
    errno = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        printf("cannot open: %s (ENOENT %d)\n", strerror(e), e == ENOENT);
        return 1;
    }
    /* Pass 1: lines, longest line, a checksum of every byte. */
    char buf[40];
    int lines = 0, pieces = 0;
    unsigned long sum = 0;
    while (fgets(buf, sizeof buf, f)) {
        pieces++;
        size_t len = strlen(buf);
        if (len > 0 && buf[len - 1] == '\n') lines++;
        for (size_t i = 0; i < len; i++) sum = sum * 31 + (unsigned char)buf[i];
    }
    long size = ftell(f);
    printf("%d lines in %d pieces, feof %d, checksum %lu\n", lines, pieces, feof(f), sum % 1000003);
    /* Pass 2: the same bytes through getc. */
    rewind(f);
    unsigned long sum2 = 0;
    long count = 0;
    int c;
    while ((c = getc(f)) != EOF) {
        sum2 = sum2 * 31 + (unsigned char)c;
        count++;
    }
    printf("getc: %s, size agrees %d\n", sum2 == sum ? "same checksum" : "different", count == size);
    /* The first line, by fread. */
    fseek(f, 0L, SEEK_SET);
    char head[20] = "";
    size_t n = fread(head, 1, sizeof head - 1, f);
    printf("fread %zu: [%s]\n", n, head);
    /* The last line, by seeking from the end. */
    long back = (long)strlen(last_line);
    if (fseek(f, -back, SEEK_END) != 0) return 2;
    char tail[64] = "";
    if (!fgets(tail, sizeof tail, f)) return 3;
    printf("last line matches %d, at size - %ld %d\n", strcmp(tail, last_line) == 0, back,
           ftell(f) == size);
    errno = 0;
    FILE *none = fopen("no/such/dir/input.txt", "r");
    printf("missing: %s, ENOENT %d\n", none ? "opened" : "NULL", errno == ENOENT);
    printf("fclose %d\n", fclose(f));
    return 0;
}
/* end of file_read_source.c */
