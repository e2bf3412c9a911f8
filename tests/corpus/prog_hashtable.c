// Program: a chained hash table of string keys (strdup'd) with insert, update, lookup, delete, resize and word frequencies.
// RUN: stdin=prog_wordcount.1.in
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

struct entry {
    char *key;
    int value;
    struct entry *next;
};

struct table {
    struct entry **buckets;
    size_t nbuckets, count;
};

static unsigned long hash(const char *s) {
    unsigned long h = 5381;
    while (*s) h = h * 33 + (unsigned char)*s++;
    return h;
}

static void resize(struct table *t, size_t n) {
    struct entry **nb = calloc(n, sizeof *nb);
    for (size_t i = 0; i < t->nbuckets; i++) {
        for (struct entry *e = t->buckets[i], *next; e; e = next) {
            next = e->next;
            size_t b = hash(e->key) % n;
            e->next = nb[b];
            nb[b] = e;
        }
    }
    free(t->buckets);
    t->buckets = nb;
    t->nbuckets = n;
}

static int *lookup(struct table *t, const char *key, int create) {
    size_t b = hash(key) % t->nbuckets;
    for (struct entry *e = t->buckets[b]; e; e = e->next)
        if (strcmp(e->key, key) == 0) return &e->value;
    if (!create) return NULL;
    if (t->count + 1 > t->nbuckets * 2) {
        resize(t, t->nbuckets * 4);
        b = hash(key) % t->nbuckets;
    }
    struct entry *e = malloc(sizeof *e);
    e->key = strdup(key);
    e->value = 0;
    e->next = t->buckets[b];
    t->buckets[b] = e;
    t->count++;
    return &e->value;
}

static int delete(struct table *t, const char *key) {
    struct entry **pp = &t->buckets[hash(key) % t->nbuckets];
    for (; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->key, key) == 0) {
            struct entry *e = *pp;
            *pp = e->next;
            free(e->key);
            free(e);
            t->count--;
            return 1;
        }
    }
    return 0;
}

static int by_count(const void *a, const void *b) {
    const struct entry *x = *(struct entry *const *)a, *y = *(struct entry *const *)b;
    if (x->value != y->value) return y->value - x->value;
    return strcmp(x->key, y->key);
}

int main(void) {
    struct table t = {calloc(2, sizeof(struct entry *)), 2, 0};
    char word[32];
    int len = 0, c;
    do {
        c = getchar();
        if (c != EOF && isalpha(c)) {
            if (len < 31) word[len++] = (char)tolower(c);
        } else if (len) {
            word[len] = '\0';
            ++*lookup(&t, word, 1);
            len = 0;
        }
    } while (c != EOF);
    printf("distinct %zu buckets %zu\n", t.count, t.nbuckets);
    int first = delete(&t, "was");
    int again = delete(&t, "was");
    printf("delete 'was' %d, again %d, lookup 'was' %d\n", first, again, lookup(&t, "was", 0) != NULL);
    struct entry **all = malloc(t.count * sizeof *all);
    size_t k = 0;
    for (size_t i = 0; i < t.nbuckets; i++)
        for (struct entry *e = t.buckets[i]; e; e = e->next) all[k++] = e;
    qsort(all, k, sizeof *all, by_count);
    for (size_t i = 0; i < k && i < 8; i++) printf("%-8s %d\n", all[i]->key, all[i]->value);
    free(all);
    for (size_t i = 0; i < t.nbuckets; i++)
        while (t.buckets[i]) delete(&t, t.buckets[i]->key);
    printf("after clearing %zu\n", t.count);
    free(t.buckets);
    return 0;
}
