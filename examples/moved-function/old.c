/* Matching fixture: moved function -- OLD version.
 * Word statistics over a fixed text; in new.c count_vowels moves to the top
 * of the file and max_word_length also ends a word at punctuation. */
#include <stdio.h>
#include <string.h>
#include <ctype.h>

static int count_words(const char *s) {
    int words = 0, in_word = 0;
    for (; *s; s++) {
        if (isspace((unsigned char)*s)) {
            in_word = 0;
        } else if (!in_word) {
            in_word = 1;
            words++;
        }
    }
    return words;
}

static int max_word_length(const char *s) {
    int best = 0, cur = 0;
    for (; *s; s++) {
        if (isspace((unsigned char)*s)) {
            cur = 0;
        } else {
            cur++;
            if (cur > best)
                best = cur;
        }
    }
    return best;
}

static int count_vowels(const char *s) {
    int n = 0;
    for (; *s; s++) {
        if (strchr("aeiouAEIOU", *s) != NULL)
            n++;
    }
    return n;
}

int main(int argc, char *argv[]) {
    const char *text = argc > 1 ? argv[1] : "the quick brown fox jumps over the lazy dog";
    printf("words=%d\n", count_words(text));
    printf("longest=%d\n", max_word_length(text));
    printf("vowels=%d\n", count_vowels(text));
    return 0;
}
