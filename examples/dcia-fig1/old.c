/* Gyori, Lahiri, Partush (ISSTA 2017), Figure 1 -- OLD version (the "-" lines).
 * Paper line N is file line N + 20 in both old.c and new.c; lines that exist
 * only in the other version are left blank so the numbering stays aligned.
 * The paper omits setlocale, locale_format, LC_ALL and HEADER; they are
 * defined below as deterministic stand-ins (the "environment" is a variable). */
#include <stdio.h>

#define HEADER "Coreutils"
#define LC_ALL 6
static const char *environment_locale = "C"; /* NULL: no usable locale */
static const char *setlocale(int category, const char *locale) {
    (void)category;
    return (locale[0] == '\0') ? environment_locale : locale;
}
static const char *locale_format(const char *s) { return s; }
void print_header(char delim);
int locale_ok(void);
int print_name(int locale);
int print_major_vers(int locale);
int print_minor_vers(int locale, char delim);

int print_product_info(int name, int version) {
    int locale, prin=0;
    print_header('\n');

    locale=locale_ok(); // spurious impact
    if (name) {
        prin=print_name(locale);
    }
    if (version && prin) {
        prin=print_major_vers(locale);
        prin=print_minor_vers(locale,'\n');


    }
    return prin;
}
void print_header(char delim) {
    printf("%s%c",HEADER,delim);
}
int locale_ok(void) {
    return setlocale (LC_ALL,"") ? 1 : 0;

}
int print_name(int locale) {
    if (locale) {
        printf("%s", locale_format("Coreutils"));
        return 1;
    }
    return 0;
}
int print_major_vers(int locale) {
    if (locale) {
        printf("%s", locale_format("8"));
        return 1;
    }
    return 0;
}
int print_minor_vers(int locale, char delim) {
    if (locale) {
        printf("%s%c", locale_format(".12"),delim);
        return 1;
    }
    return 0;
}

/* Not in the paper: a driver making one execution that starts in
 * print_product_info, as the paper assumes (one call per process: line_delim
 * is static storage, so a second call would start from a different store).
 * Usage: prog [NAME VERSION [nolocale]] with NAME, VERSION in {0,1};
 * default 1 1 with a usable locale. */
int main(int argc, char *argv[]) {
    int name = 1, version = 1, r;
    if (argc >= 3) {
        name = argv[1][0] == '1';
        version = argv[2][0] == '1';
    }
    if (argc >= 4 && argv[3][0] == 'n')
        environment_locale = NULL;
    printf("[name=%d version=%d locale=%s] ", name, version,
           environment_locale ? "yes" : "no");
    r = print_product_info(name, version);
    printf(" -> %d\n", r);
    return 0;
}
