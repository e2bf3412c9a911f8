// Program: wc-like word, line and character count over stdin, plus the longest word and word-length histogram.
// RUN: stdin=prog_wordcount.1.in
// RUN: stdin="one"
// RUN: stdin="  \n\n  \t "
#include <stdio.h>
#include <ctype.h>
#include <string.h>

int main(void) {
    long lines = 0, words = 0, chars = 0;
    int in_word = 0, c;
    char word[64], longest[64] = "";
    int wlen = 0;
    int hist[11] = {0};
    while ((c = getchar()) != EOF) {
        chars++;
        if (c == '\n') lines++;
        if (isspace(c)) {
            if (in_word) {
                word[wlen] = '\0';
                hist[wlen > 10 ? 10 : wlen]++;
                if ((size_t)wlen > strlen(longest)) strcpy(longest, word);
            }
            in_word = 0;
            wlen = 0;
        } else {
            if (!in_word) words++;
            in_word = 1;
            if (wlen < 63) word[wlen++] = (char)c;
        }
    }
    if (in_word) {
        word[wlen] = '\0';
        hist[wlen > 10 ? 10 : wlen]++;
        if ((size_t)wlen > strlen(longest)) strcpy(longest, word);
    }
    printf("%7ld %7ld %7ld\n", lines, words, chars);
    printf("longest word: '%s'\n", longest);
    for (int i = 1; i <= 10; i++) {
        if (!hist[i]) continue;
        printf("%2d%s | ", i, i == 10 ? "+" : " ");
        for (int k = 0; k < hist[i]; k++) putchar('#');
        printf(" %d\n", hist[i]);
    }
    return words == 0;
}
