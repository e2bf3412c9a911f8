/* Word statistics: WORD...; prints a checksum of the words and the longest one. */
#include <stdio.h>
#include <string.h>

struct longest {
    int index;
    int length;
};

static int checksum(char **words, int n)
{
    int h = 11;
    for (int i = 0; i < n; i++) {
        for (const char *p = words[i]; *p != '\0'; p++)
            h = (h * 37 + (unsigned char)*p) % 1009;
        h = (h + 1) % 1009;
    }
    return h;
}

static void find_longest(char **words, int n, struct longest *best)
{
    best->index = -1;
    best->length = 0;
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(words[i]);
        if (len >= best->length && len > 0) {
            best->length = len;
            best->index = i;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc - 1;
    char **words = argv + 1;
    int h = checksum(words, n);
    printf("checksum %d\n", h);
    struct longest best;
    find_longest(words, n, &best);
    if (best.index < 0)
        printf("no words\n");
    else
        printf("longest %s (%d)\n", words[best.index], best.length);
    return 0;
}
