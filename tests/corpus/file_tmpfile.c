// Files: a tmpfile() scratch buffer as GNU ed keeps one (append at SEEK_END, remember ftell, read back with fseek/fread), fgets, ungetc, rewind, feof/ferror.
// RUN:
// RUN: args=3
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct line {
    long pos;
    int len;
};

static FILE *scratch;
static struct line lines[16];
static int nlines;

static int put_line(const char *text) {
    int len = (int)strlen(text);
    if (fseek(scratch, 0L, SEEK_END) != 0) return -1;
    lines[nlines].pos = ftell(scratch);
    lines[nlines].len = len;
    if ((int)fwrite(text, 1, len, scratch) != len) return -1;
    return nlines++;
}

static const char *get_line(int i) {
    static char buf[64];
    if (fseek(scratch, lines[i].pos, SEEK_SET) != 0) return 0;
    if ((int)fread(buf, 1, lines[i].len, scratch) != lines[i].len) return 0;
    buf[lines[i].len] = '\0';
    return buf;
}

int main(int argc, char **argv) {
    int step = argc > 1 ? atoi(argv[1]) : 2;
    const char *words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"};
    scratch = tmpfile();
    if (!scratch) {
        printf("no tmpfile\n");
        return 1;
    }
    for (int i = 0; i < 7; i++) {
        char text[32];
        snprintf(text, sizeof text, "%d:%s\n", i, words[(i * step) % 7]);
        if (put_line(text) < 0) return 2;
    }
    printf("%d lines, %ld bytes\n", nlines, ftell(scratch));
    for (int i = nlines - 1; i >= 0; i -= 2) {
        const char *s = get_line(i);
        printf("line %d at %ld: %s", i, lines[i].pos, s ? s : "?\n");
    }
    /* Rewrite one line in place, then read the whole buffer line by line. */
    fseek(scratch, lines[1].pos + 2, SEEK_SET);
    fputc('B', scratch);
    rewind(scratch);
    char buf[16];
    int pieces = 0;
    while (fgets(buf, 8, scratch)) {
        pieces++;
        fputs(buf, stdout);
    }
    printf("%d pieces, feof %d, ferror %d\n", pieces, feof(scratch), ferror(scratch));
    /* ungetc pushes back in front of the position. */
    fseek(scratch, lines[3].pos, SEEK_SET);
    int c = getc(scratch);
    ungetc('#', scratch);
    long at = ftell(scratch);
    int again = getc(scratch);
    printf("read '%c', pushed back '#' (ftell %ld), read '%c' then '%c'\n", c, at, again,
           getc(scratch));
    /* fprintf to the file, read back with fscanf. */
    fseek(scratch, 0L, SEEK_END);
    long num_at = ftell(scratch);
    fprintf(scratch, "%d %s %x\n", 1234, "word", 255);
    fseek(scratch, num_at, SEEK_SET);
    int n = 0, h = 0;
    char w[8] = "";
    int got = fscanf(scratch, "%d %7s %x", &n, w, &h);
    printf("fscanf %d: %d %s %d\n", got, n, w, h);
    printf("fclose %d\n", fclose(scratch));
    return 0;
}
