// Program: string utilities: in-place reverse, word reverse, palindromes, run-length encoding, Caesar cipher.
#include <stdio.h>
#include <string.h>
#include <ctype.h>

static void reverse(char *s, size_t n) {
    for (size_t i = 0, j = n ? n - 1 : 0; i < j; i++, j--) {
        char t = s[i]; s[i] = s[j]; s[j] = t;
    }
}

static void reverse_words(char *s) {
    size_t n = strlen(s);
    reverse(s, n);
    for (size_t i = 0; i < n;) {
        while (i < n && s[i] == ' ') i++;
        size_t j = i;
        while (j < n && s[j] != ' ') j++;
        reverse(s + i, j - i);
        i = j;
    }
}

static int is_palindrome(const char *s) {
    size_t i = 0, j = strlen(s);
    while (i < j) {
        if (!isalnum((unsigned char)s[i])) { i++; continue; }
        if (!isalnum((unsigned char)s[j - 1])) { j--; continue; }
        if (tolower((unsigned char)s[i]) != tolower((unsigned char)s[j - 1])) return 0;
        i++;
        j--;
    }
    return 1;
}

static void rle(const char *s, char *out) {
    while (*s) {
        char c = *s;
        int run = 0;
        while (*s == c) { s++; run++; }
        out += run > 1 ? sprintf(out, "%d%c", run, c) : sprintf(out, "%c", c);
    }
    *out = '\0';
}

static void caesar(char *s, int k) {
    for (; *s; s++) {
        if (isupper((unsigned char)*s)) *s = (char)('A' + (*s - 'A' + k + 26) % 26);
        else if (islower((unsigned char)*s)) *s = (char)('a' + (*s - 'a' + k + 26) % 26);
    }
}

int main(void) {
    char s[] = "Hello, reversible world";
    reverse(s, strlen(s));
    printf("reversed: %s\n", s);
    char w[] = "the quick  brown fox";
    reverse_words(w);
    printf("words reversed: '%s'\n", w);
    const char *cands[] = {"A man, a plan, a canal: Panama", "racecar", "ripple", "", "No 'x' in Nixon"};
    for (int i = 0; i < 5; i++) printf("palindrome(\"%s\") = %d\n", cands[i], is_palindrome(cands[i]));
    char out[64];
    const char *runs[] = {"aaabccddddde", "abc", "zzzzzzzzzzzz", ""};
    for (int i = 0; i < 4; i++) {
        rle(runs[i], out);
        printf("rle(\"%s\") = \"%s\"\n", runs[i], out);
    }
    char msg[] = "Attack at Dawn, xyz!";
    caesar(msg, 3);
    printf("caesar +3: %s\n", msg);
    caesar(msg, -3);
    printf("caesar -3: %s\n", msg);
    char one[] = "x";
    reverse(one, 1);
    char empty[] = "";
    reverse(empty, 0);
    printf("edge cases '%s' '%s'\n", one, empty);
    return 0;
}
