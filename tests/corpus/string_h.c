// string.h: strlen strcmp strncmp strcpy strncpy strcat strncat strchr strrchr strstr strdup strspn strcspn.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wstringop-truncation"

static int sign(int v) { return (v > 0) - (v < 0); }

int main(void) {
    char buf[64];
    strcpy(buf, "Hello");
    strcat(buf, ", ");
    strcat(buf, "World");
    printf("%s (%zu)\n", buf, strlen(buf));
    printf("cmp %d %d %d %d\n", sign(strcmp("abc", "abd")), sign(strcmp("abc", "abc")),
           sign(strcmp("b", "abc")), sign(strcmp("", "a")));
    printf("ncmp %d %d\n", sign(strncmp("abcdef", "abcxyz", 3)), sign(strncmp("abcdef", "abcxyz", 4)));
    printf("high bytes compare unsigned: %d\n", sign(strcmp("\x80", "a")));
    char small[8];
    strncpy(small, "truncate me", sizeof small - 1);
    small[sizeof small - 1] = '\0';
    printf("strncpy '%s'\n", small);
    char padded[8];
    memset(padded, 'x', sizeof padded);
    strncpy(padded, "ab", sizeof padded);
    printf("padded zeros %d %d %d\n", padded[2], padded[5], padded[7]);
    char nc[16] = "abc";
    strncat(nc, "defghij", 3);
    printf("strncat %s\n", nc);
    const char *s = "the quick brown fox jumps";
    printf("strchr '%s'\n", strchr(s, 'q'));
    printf("strrchr '%s'\n", strrchr(s, 'o'));
    printf("strchr nul at end %td\n", strchr(s, '\0') - s);
    printf("strchr missing %d\n", strchr(s, 'z') == NULL);
    printf("strstr '%s' missing %d empty %d\n", strstr(s, "brown"), strstr(s, "cat") == NULL,
           strstr(s, "") == s);
    printf("strspn %zu strcspn %zu\n", strspn("123abc", "0123456789"), strcspn(s, "aeiou"));
    char *dup = strdup(s);
    dup[0] = 'T';
    printf("dup '%s' orig '%s'\n", dup, s);
    free(dup);
    int words = 0;
    const char *p = s;
    while (*p) {
        p += strspn(p, " ");
        if (*p) words++;
        p += strcspn(p, " ");
    }
    printf("words %d\n", words);
    char path[] = "/usr/local/lib/libc.so";
    char *base = strrchr(path, '/') + 1;
    char *dot = strchr(base, '.');
    *dot = '\0';
    printf("base name %s\n", base);
    char rev[32];
    size_t n = strlen(s);
    for (size_t i = 0; i < n && i < sizeof rev - 1; i++) rev[i] = s[n - 1 - i];
    rev[n < sizeof rev - 1 ? n : sizeof rev - 1] = '\0';
    printf("reversed %s\n", rev);
    return 0;
}
