// Tokenizing strings: strtok with several delimiters, key=value parsing with strchr, CSV splitting with strcspn.
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

struct kv { char key[16]; int value; };

int main(void) {
    char text[] = "  alpha, beta;gamma ,,delta\tepsilon  ";
    int count = 0;
    for (char *tok = strtok(text, " ,;\t"); tok; tok = strtok(NULL, " ,;\t"))
        printf("token %d: [%s]\n", ++count, tok);
    char cfg[] = "width=80;height=24;depth=;color=256;bogus;name=7";
    struct kv items[8];
    int n = 0;
    for (char *part = strtok(cfg, ";"); part && n < 8; part = strtok(NULL, ";")) {
        char *eq = strchr(part, '=');
        if (!eq) {
            printf("skipping '%s'\n", part);
            continue;
        }
        *eq = '\0';
        strncpy(items[n].key, part, sizeof items[n].key - 1);
        items[n].key[sizeof items[n].key - 1] = '\0';
        items[n].value = atoi(eq + 1);
        n++;
    }
    for (int i = 0; i < n; i++) printf("%s -> %d\n", items[i].key, items[i].value);
    const char *csv = "name,age,,city";
    const char *p = csv;
    int field = 0;
    for (;;) {
        size_t len = strcspn(p, ",");
        printf("field %d: '%.*s' (%zu)\n", field++, (int)len, p, len);
        if (p[len] == '\0') break;
        p += len + 1;
    }
    char only_delims[] = ",,,";
    printf("only delimiters gives NULL: %d\n", strtok(only_delims, ",") == NULL);
    char path[] = "/usr//local/bin/";
    char *segs[8];
    int ns = 0;
    for (char *s = strtok(path, "/"); s; s = strtok(NULL, "/")) segs[ns++] = s;
    printf("%d segments:", ns);
    for (int i = ns - 1; i >= 0; i--) printf(" %s", segs[i]);
    putchar('\n');
    return 0;
}
