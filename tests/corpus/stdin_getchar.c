// stdin: getchar loop to EOF counting characters, lines, digits and a byte histogram; ungetc for peeking.
// RUN: stdin=stdin_getchar.1.in
// RUN: stdin="no newline at end"
// RUN:
#include <stdio.h>
#include <ctype.h>

int main(void) {
    int c, chars = 0, lines = 0, digits = 0, upper = 0, spaces = 0;
    int hist[26] = {0};
    long number_sum = 0;
    while ((c = getchar()) != EOF) {
        chars++;
        if (c == '\n') lines++;
        if (isspace(c)) spaces++;
        if (isupper(c)) upper++;
        if (isalpha(c)) hist[tolower(c) - 'a']++;
        if (isdigit(c)) {
            digits++;
            long v = c - '0';
            while ((c = getchar()) != EOF && isdigit(c)) {
                chars++;
                digits++;
                v = v * 10 + (c - '0');
            }
            number_sum += v;
            if (c == EOF) break;
            ungetc(c, stdin);
        }
    }
    printf("chars %d lines %d digits %d upper %d spaces %d\n", chars, lines, digits, upper, spaces);
    printf("sum of numbers %ld\n", number_sum);
    printf("letters:");
    for (int i = 0; i < 26; i++)
        if (hist[i]) printf(" %c=%d", 'a' + i, hist[i]);
    putchar('\n');
    int again = getchar();
    printf("getchar after EOF %d\n", again == EOF);
    return 0;
}
