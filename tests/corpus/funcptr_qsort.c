// qsort and bsearch with comparators over ints, strings, structs (multi-key), and reverse order.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct person {
    const char *name;
    int age;
};

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_int_desc(const void *a, const void *b) { return cmp_int(b, a); }

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_person(const void *a, const void *b) {
    const struct person *p = a, *q = b;
    if (p->age != q->age) return p->age - q->age;
    return strcmp(p->name, q->name);
}

static int cmp_char(const void *a, const void *b) {
    return *(const unsigned char *)a - *(const unsigned char *)b;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void) {
    int v[] = {42, -7, 19, 0, 3, 19, -100, 8, 77, 1};
    int n = sizeof v / sizeof v[0];
    qsort(v, n, sizeof v[0], cmp_int);
    for (int i = 0; i < n; i++) printf("%d ", v[i]);
    putchar('\n');
    int keys[] = {19, 4, -100, 77};
    for (int i = 0; i < 4; i++) {
        int *hit = bsearch(&keys[i], v, n, sizeof v[0], cmp_int);
        printf("bsearch %d: %s", keys[i], hit ? "found" : "missing");
        if (hit && *hit != 19) printf(" at %td", hit - v);
        putchar('\n');
    }
    qsort(v, n, sizeof v[0], cmp_int_desc);
    for (int i = 0; i < n; i++) printf("%d ", v[i]);
    putchar('\n');
    const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "apricot"};
    qsort(words, 6, sizeof words[0], cmp_str);
    for (int i = 0; i < 6; i++) printf("%s ", words[i]);
    putchar('\n');
    const char *key = "fig";
    const char **found = bsearch(&key, words, 6, sizeof words[0], cmp_str);
    printf("fig at %td\n", found - words);
    struct person people[] = {{"zoe", 30}, {"adam", 25}, {"bob", 30}, {"eve", 22}, {"al", 25}};
    qsort(people, 5, sizeof people[0], cmp_person);
    for (int i = 0; i < 5; i++) printf("%s(%d) ", people[i].name, people[i].age);
    putchar('\n');
    char letters[] = "thequickbrownfox";
    qsort(letters, strlen(letters), 1, cmp_char);
    printf("%s\n", letters);
    double ds[] = {3.5, -1.25, 2.0, 0.0, -7.5};
    qsort(ds, 5, sizeof(double), cmp_double);
    for (int i = 0; i < 5; i++) printf("%.2f ", ds[i]);
    putchar('\n');
    qsort(v, 1, sizeof v[0], cmp_int);
    qsort(v, 0, sizeof v[0], cmp_int);
    printf("trivial sorts ok %d\n", v[0]);
    return 0;
}
