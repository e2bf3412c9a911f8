// Strings: literals, escapes, concatenation, char arrays vs pointers, sizeof of strings, manual string loops.
#include <stdio.h>

static int my_strlen(const char *s) {
    const char *p = s;
    while (*p) p++;
    return (int)(p - s);
}

static void upcase(char *s) {
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z') *s = *s - 'a' + 'A';
}

static int count_char(const char *s, char c) {
    int n = 0;
    for (int i = 0; s[i] != '\0'; i++) n += s[i] == c;
    return n;
}

int main(void) {
    const char *lit = "hello, world";
    char arr[] = "hello, world";
    char sized[20] = "hi";
    printf("%s|%s|%s\n", lit, arr, sized);
    printf("sizeof arr %zu sizeof sized %zu sizeof lit-ptr %zu len %d\n", sizeof arr,
           sizeof sized, sizeof lit, my_strlen(lit));
    printf("sizeof \"abc\" %zu\n", sizeof "abc");
    const char *cat = "con" "cat" "enated";
    printf("%s %d\n", cat, my_strlen(cat));
    printf("escapes: [\t] [\\] [\"] [\'] [\x41\102] [%c]\n", '\101');
    printf("newline count %d\n", count_char("a\nb\nc\n", '\n'));
    char embedded[] = "ab\0cd";
    printf("embedded nul: sizeof %zu len %d tail %s\n", sizeof embedded, my_strlen(embedded),
           embedded + 3);
    upcase(arr);
    printf("upcased %s\n", arr);
    printf("index literal %c %c\n", "xyz"[1], *("xyz" + 2));
    char chars[5] = {'a', 'b', 'c', 'd', '\0'};
    printf("char list %s\n", chars);
    char nonul[3] = "abc";
    printf("no terminator: %c%c%c\n", nonul[0], nonul[1], nonul[2]);
    sized[2] = '!';
    sized[3] = '\0';
    printf("modified %s\n", sized);
    const char *words[] = {"alpha", "beta", "gamma", ""};
    for (int i = 0; words[i][0]; i++) printf("%d:%s(%d) ", i, words[i], my_strlen(words[i]));
    putchar('\n');
    char two[2][8] = {"one", "two"};
    two[1][0] = 'T';
    printf("%s %s\n", two[0], two[1]);
    printf("%s\n", "multi\
line literal");
    printf("%5s|%-5s|%.2s|%c\n", "ab", "cd", "efgh", 'z');
    unsigned char hi = (unsigned char)"\xff"[0];
    printf("high byte %d, as char %d\n", hi, "\xff"[0]);
    return 0;
}
