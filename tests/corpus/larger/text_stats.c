// Text analyser: ctype word splitting with case folding, a chained hash table that grows by rehashing, line/sentence/paragraph statistics, longest lines (recursive merge sort), a word-length histogram drawn as bars, repeated-word detection, a concordance, and qsort reports whose comparator comes from a table of function pointers chosen by command-line options.
// RUN: stdin=text_stats.1.in
// RUN: args=-a -n 15 stdin=text_stats.1.in
// RUN: args=-l -n5 -w times -w Wisdom stdin=text_stats.1.in
// RUN: args=-pr -n 8 stdin=text_stats.2.in
// RUN: args=-q stdin=text_stats.2.in
// RUN: args=-c -f -m 4 -n 12 stdin=text_stats.2.in
// RUN: args=-n 6 -w the -w tokens -w zebra stdin=text_stats.3.in
// RUN: args=-lr -m 3 stdin=text_stats.3.in
// RUN: args=-fq -w buffalo stdin=text_stats.4.in
// RUN: args=-a -- stdin=text_stats.4.in
// RUN: args=-c -w That -w "is" -n 4 stdin=text_stats.4.in
// RUN:
// RUN: args=-q stdin=""
// RUN: stdin="   \n\t\n\n"
// RUN: stdin="Hello, world!!! Hello?? (hello) -- \"world\"... 42 3.14 1,000 x2 e.g. it's well-known.\r\nNo newline at end"
// RUN: args=-n stdin="a b c\n"
// RUN: args=-n 0 stdin="a b c\n"
// RUN: args=-x stdin="a b c\n"
// RUN: args=-w "" stdin="a b c\n"
// RUN: args=-w a -w b -w c -w d -w e stdin="a b c\n"
// RUN: args=-f extra stdin="a b c\n"
// RUN: args=-m 12x stdin="a b c\n"
// RUN: args=-h
// RUN: args=-rrn2 -l stdin="a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n o p q longer, one two three four five six.\n"
// RUN: args=-m "" stdin="a b c\n"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORD 24          /* longest word kept, including the NUL */
#define CHUNK 40             /* fgets buffer: long lines arrive in pieces */
#define HIST_MAX 12          /* the last histogram row counts this length and more */
#define BAR_WIDTH 40
#define MAX_QUERIES 4
#define MAX_COLS 6
#define INITIAL_BUCKETS 8
#define SNIPPET 18
#define LINE_SHOW 44
#define REPEAT_SHOW 8
#define DEFAULT_TOP 10

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define PERMILLE(part, whole) ((whole) ? (long)((part) * 1000L / (whole)) : 0L)
#define TENTHS(num, den) ((den) ? ((num) * 10L + (den) / 2) / (den) : 0L)

/* Grows a dynamic array so that it holds at least `need` elements. */
#define GROW(ptr, cap, need)                                                  \
    do {                                                                      \
        if ((size_t)(need) > (cap)) {                                         \
            size_t nc_ = (cap) ? (cap) : 4;                                   \
            while (nc_ < (size_t)(need))                                      \
                nc_ *= 2;                                                     \
            (ptr) = xrealloc((ptr), nc_ * sizeof *(ptr));                     \
            (cap) = nc_;                                                      \
        }                                                                     \
    } while (0)

static void *xrealloc(void *p, size_t size) {
    p = realloc(p, size);
    if (p == NULL) {
        fputs("out of memory\n", stderr);
        exit(3);
    }
    return p;
}

/* ---------------------------------------------------------------- tokens */

enum tok_kind { TOK_WORD, TOK_NUMBER, TOK_END, TOK_PUNCT };

struct token {
    enum tok_kind kind;
    const char *text; /* NUL-terminated copy, possibly truncated */
    int len;          /* strlen(text) */
    int full_len;     /* length in the input line */
    int col;          /* 1-based column of the first character */
};

typedef void (*token_fn)(void *ctx, const struct token *tok);

static int is_end_mark(char c) { return c == '.' || c == '!' || c == '?'; }

/* An apostrophe or hyphen between two letters belongs to the word. */
static int is_joiner(const char *s, int i) {
    return (s[i] == '\'' || s[i] == '-') && i > 0 &&
           isalpha((unsigned char)s[i - 1]) && isalpha((unsigned char)s[i + 1]);
}

/* Splits one line into tokens and hands each to fn; returns the token count. */
static int tokenize(const char *line, int fold, token_fn fn, void *ctx) {
    char buf[MAX_WORD];
    struct token tok;
    int i = 0, count = 0;
    while (line[i] != '\0') {
        unsigned char c = (unsigned char)line[i];
        int start = i, n = 0;
        if (isalpha(c)) {
            while (isalpha((unsigned char)line[i]) || is_joiner(line, i)) {
                if (n < MAX_WORD - 1)
                    buf[n++] = fold ? (char)tolower((unsigned char)line[i]) : line[i];
                i++;
            }
            tok.kind = TOK_WORD;
        } else if (isdigit(c)) {
            while (isdigit((unsigned char)line[i]) ||
                   ((line[i] == '.' || line[i] == ',') && isdigit((unsigned char)line[i + 1]))) {
                if (n < MAX_WORD - 1)
                    buf[n++] = line[i];
                i++;
            }
            tok.kind = TOK_NUMBER;
        } else if (is_end_mark(line[i])) {
            while (is_end_mark(line[i])) {
                if (n < MAX_WORD - 1)
                    buf[n++] = line[i];
                i++;
            }
            tok.kind = TOK_END;
        } else if (ispunct(c)) {
            buf[n++] = line[i++];
            tok.kind = TOK_PUNCT;
        } else {
            i++; /* space, control or non-ASCII byte */
            continue;
        }
        buf[n] = '\0';
        tok.text = buf;
        tok.len = n;
        tok.full_len = i - start;
        tok.col = start + 1;
        fn(ctx, &tok);
        count++;
    }
    return count;
}

/* ------------------------------------------------------------ hash table */

struct entry {
    char *word;
    int len, count;
    int lines;                 /* distinct lines it occurs on */
    int first_line, last_line;
    int seq;                   /* order of first appearance */
    struct entry *next;
};

struct table {
    struct entry **buckets;
    size_t nbuckets, count;
    int rehashes;
};

static unsigned int hash_word(const char *s) {
    unsigned int h = 2166136261u;
    while (*s != '\0') {
        h ^= (unsigned char)*s++;
        h *= 16777619u;
    }
    return h;
}

static void table_init(struct table *t) {
    *t = (struct table){ calloc(INITIAL_BUCKETS, sizeof *t->buckets), INITIAL_BUCKETS, 0, 0 };
}

static void table_rehash(struct table *t) {
    size_t n = t->nbuckets * 2;
    struct entry **nb = calloc(n, sizeof *nb);
    for (size_t i = 0; i < t->nbuckets; i++) {
        for (struct entry *e = t->buckets[i], *next; e != NULL; e = next) {
            size_t b = hash_word(e->word) % n;
            next = e->next;
            e->next = nb[b];
            nb[b] = e;
        }
    }
    free(t->buckets);
    t->buckets = nb;
    t->nbuckets = n;
    t->rehashes++;
}

/* Finds word; with create, inserts it (count 0) when absent. */
static struct entry *table_get(struct table *t, const char *word, int create, int line) {
    size_t b = hash_word(word) % t->nbuckets;
    struct entry *e;
    for (e = t->buckets[b]; e != NULL; e = e->next)
        if (strcmp(e->word, word) == 0)
            return e;
    if (!create)
        return NULL;
    if ((t->count + 1) * 4 > t->nbuckets * 3) {
        table_rehash(t);
        b = hash_word(word) % t->nbuckets;
    }
    e = calloc(1, sizeof *e);
    e->word = strdup(word);
    e->len = (int)strlen(word);
    e->first_line = line;
    e->seq = (int)t->count;
    e->next = t->buckets[b];
    t->buckets[b] = e;
    t->count++;
    return e;
}

/* Returns the longest chain; counts the words seen once into *once. */
static int table_census(const struct table *t, int *once) {
    int best = 0;
    *once = 0;
    for (size_t i = 0; i < t->nbuckets; i++) {
        int n = 0;
        for (const struct entry *e = t->buckets[i]; e != NULL; e = e->next, n++)
            *once += e->count == 1;
        best = MAX(best, n);
    }
    return best;
}

/* All entries at least min_len long, in bucket order (the caller sorts). */
static struct entry **table_entries(const struct table *t, int min_len, size_t *n) {
    struct entry **v = malloc((t->count + 1) * sizeof *v);
    size_t k = 0;
    for (size_t i = 0; i < t->nbuckets; i++)
        for (struct entry *e = t->buckets[i]; e != NULL; e = e->next)
            if (e->len >= min_len)
                v[k++] = e;
    *n = k;
    return v;
}

static void table_free(struct table *t) {
    for (size_t i = 0; i < t->nbuckets; i++) {
        for (struct entry *e = t->buckets[i], *next; e != NULL; e = next) {
            next = e->next;
            free(e->word);
            free(e);
        }
    }
    free(t->buckets);
}

/* ------------------------------------------------------------ statistics */

struct repeat {
    char word[MAX_WORD];
    int line, col;
};

struct line_rec {
    char *text;
    int len, no;
};

struct stats {
    int fold, cur_line;
    long chars, letters, upper, digits, spaces, punct, other;
    int lines, blank_lines, crlf_lines;
    int paragraphs, in_para, para_words, para_start, longest_para, longest_para_line;
    int sentences, unterminated, sent_words, sent_start, longest_sent, longest_sent_line;
    long words, total_word_len;
    int numbers, truncated, pauses;
    long len_hist[HIST_MAX + 1];
    char longest_word[MAX_WORD];
    int longest_word_len, longest_word_line;
    char prev[MAX_WORD];
    int have_prev;
    struct repeat *repeats;
    size_t nrepeats, cap_repeats;
    struct table tab;
};

/* A word or number joins the current sentence and paragraph. */
static void count_in_sentence(struct stats *st) {
    if (st->sent_words++ == 0)
        st->sent_start = st->cur_line;
    st->para_words++;
}

static void end_sentence(struct stats *st, int terminated) {
    if (st->sent_words == 0)
        return;
    st->sentences++;
    if (!terminated)
        st->unterminated++;
    if (st->sent_words > st->longest_sent) {
        st->longest_sent = st->sent_words;
        st->longest_sent_line = st->sent_start;
    }
    st->sent_words = 0;
}

static void end_paragraph(struct stats *st) {
    if (!st->in_para)
        return;
    end_sentence(st, 0);
    if (st->para_words > st->longest_para) {
        st->longest_para = st->para_words;
        st->longest_para_line = st->para_start;
    }
    st->in_para = 0;
    st->have_prev = 0;
}

static void add_word(struct stats *st, const struct token *tok) {
    struct entry *e = table_get(&st->tab, tok->text, 1, st->cur_line);
    e->count++;
    if (e->last_line != st->cur_line) {
        e->lines++;
        e->last_line = st->cur_line;
    }
    if (tok->full_len > tok->len)
        st->truncated++;
    st->words++;
    st->total_word_len += tok->full_len;
    st->len_hist[MIN(tok->full_len, HIST_MAX)]++;
    if (tok->full_len > st->longest_word_len) {
        st->longest_word_len = tok->full_len;
        st->longest_word_line = st->cur_line;
        strcpy(st->longest_word, tok->text);
    }
    if (st->have_prev && strcasecmp(st->prev, tok->text) == 0) {
        struct repeat *r;
        GROW(st->repeats, st->cap_repeats, st->nrepeats + 1);
        r = &st->repeats[st->nrepeats++];
        strcpy(r->word, tok->text);
        r->line = st->cur_line;
        r->col = tok->col;
    }
    strcpy(st->prev, tok->text);
    st->have_prev = 1;
    count_in_sentence(st);
}

static void on_token(void *ctx, const struct token *tok) {
    struct stats *st = ctx;
    switch (tok->kind) {
    case TOK_WORD:
        add_word(st, tok);
        break;
    case TOK_NUMBER:
        st->numbers++;
        st->have_prev = 0;
        count_in_sentence(st);
        break;
    case TOK_END:
        end_sentence(st, 1);
        st->have_prev = 0;
        break;
    case TOK_PUNCT:
        if (strchr(",;:", tok->text[0]) != NULL)
            st->pauses++;
        break;
    }
}

static void analyse_line(struct stats *st, const char *text) {
    const char *p;
    int blank = 1;
    st->lines++;
    st->cur_line = st->lines;
    for (p = text; *p != '\0'; p++) {
        unsigned char c = (unsigned char)*p;
        st->chars++;
        if (isalpha(c)) {
            st->letters++;
            if (isupper(c))
                st->upper++;
        } else if (isdigit(c)) {
            st->digits++;
        } else if (isspace(c)) {
            st->spaces++;
        } else if (ispunct(c)) {
            st->punct++;
        } else {
            st->other++;
        }
        if (!isspace(c))
            blank = 0;
    }
    if (blank) {
        st->blank_lines++;
        end_paragraph(st);
        return;
    }
    if (!st->in_para) {
        st->in_para = 1;
        st->paragraphs++;
        st->para_start = st->cur_line;
        st->para_words = 0;
    }
    tokenize(text, st->fold, on_token, st);
}

/* Reads one line of any length (without its newline); NULL at end of input. */
static char *read_line(int *len_out, int *crlf) {
    char chunk[CHUNK];
    char *buf = NULL;
    size_t len = 0, cap = 0;
    while (fgets(chunk, sizeof chunk, stdin) != NULL) {
        size_t n = strlen(chunk);
        GROW(buf, cap, len + n + 1);
        memcpy(buf + len, chunk, n + 1);
        len += n;
        if (buf[len - 1] == '\n') {
            buf[--len] = '\0';
            break;
        }
    }
    if (buf == NULL)
        return NULL;
    *crlf = len > 0 && buf[len - 1] == '\r';
    if (*crlf)
        buf[--len] = '\0';
    *len_out = (int)len;
    return buf;
}

/* --------------------------------------------------------------- options */

typedef int (*cmp_fn)(const void *, const void *);

#define ENTRY(p) (*(const struct entry *const *)(p))

static int cmp_alpha(const void *a, const void *b) {
    return strcmp(ENTRY(a)->word, ENTRY(b)->word);
}

static int cmp_freq(const void *a, const void *b) {
    const struct entry *x = ENTRY(a), *y = ENTRY(b);
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->word, y->word);
}

static int cmp_len(const void *a, const void *b) {
    const struct entry *x = ENTRY(a), *y = ENTRY(b);
    if (x->len != y->len)
        return x->len > y->len ? -1 : 1;
    return cmp_freq(a, b);
}

static int cmp_first(const void *a, const void *b) {
    const struct entry *x = ENTRY(a), *y = ENTRY(b);
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static const struct order {
    char opt;
    const char *name;
    cmp_fn cmp;
} orders[] = {
    { 'f', "frequency", cmp_freq },
    { 'a', "alphabet", cmp_alpha },
    { 'l', "length", cmp_len },
    { 'p', "first appearance", cmp_first },
};

struct options {
    const struct order *order;
    int reverse, quiet, fold, top, min_len;
    const char *queries[MAX_QUERIES];
    int nqueries;
};

static const struct order *find_order(char opt) {
    size_t i;
    for (i = 0; i < ARRAY_LEN(orders); i++)
        if (orders[i].opt == opt)
            return &orders[i];
    return NULL;
}

static void usage(void) {
    size_t i;
    puts("usage: text_stats [-f|-a|-l|-p] [-r] [-n N] [-m LEN] [-w WORD]... [-c] [-q] [-h] < text");
    for (i = 0; i < ARRAY_LEN(orders); i++)
        printf("  -%c  sort the word list by %s\n", orders[i].opt, orders[i].name);
    puts("  -r  reverse the order      -n N  show the top N (1-1000)");
    puts("  -m  minimum word length    -w W  concordance of W (at most 4)");
    puts("  -c  keep case              -q    summary only");
}

static int parse_int_arg(const char *s, int lo, int hi, int *out) {
    char *end;
    long v;
    if (*s == '\0')
        return 0;
    v = strtol(s, &end, 10);
    if (*end != '\0' || v < lo || v > hi)
        return 0;
    *out = (int)v;
    return 1;
}

/* 0: run, 1: help asked, -1: invalid (message already printed). */
static int parse_options(int argc, char **argv, struct options *o) {
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *p;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0')
            break;
        for (p = a + 1; *p != '\0'; p++) {
            const struct order *ord;
            const char *val;
            switch (*p) {
            case 'r':
                o->reverse = !o->reverse;
                break;
            case 'q':
                o->quiet = 1;
                break;
            case 'c':
                o->fold = 0;
                break;
            case 'h':
                return 1;
            case 'n':
            case 'm':
            case 'w':
                val = p[1] != '\0' ? p + 1 : i + 1 < argc ? argv[++i] : NULL;
                if (val == NULL) {
                    printf("option -%c needs an argument\n", *p);
                    return -1;
                }
                if (*p == 'w') {
                    if (*val == '\0' || o->nqueries == MAX_QUERIES) {
                        printf("bad or too many -w words\n");
                        return -1;
                    }
                    o->queries[o->nqueries++] = val;
                } else if (!parse_int_arg(val, 1, *p == 'n' ? 1000 : MAX_WORD,
                                          *p == 'n' ? &o->top : &o->min_len)) {
                    printf("bad number '%s' for -%c\n", val, *p);
                    return -1;
                }
                goto next_arg;
            default:
                ord = find_order(*p);
                if (ord == NULL) {
                    printf("unknown option -%c\n", *p);
                    return -1;
                }
                o->order = ord;
                break;
            }
        }
    next_arg:;
    }
    if (i < argc) {
        printf("unexpected argument '%s'\n", argv[i]);
        return -1;
    }
    return 0;
}

/* --------------------------------------------------------------- reports */

struct context {
    const struct options *opt;
    struct stats *st;
    struct line_rec *lines;
    int nlines;
};

/* Prints n with thousands separators. */
static void print_grouped(long n) {
    if (n >= 1000) {
        print_grouped(n / 1000);
        printf(",%03ld", n % 1000);
    } else {
        printf("%ld", n);
    }
}

static void print_tenths(long t) {
    printf("%ld.%ld", t / 10, t % 10);
}

static void report_summary(const struct context *cx) {
    const struct stats *st = cx->st;
    int once, chain = table_census(&st->tab, &once);
    puts("== summary ==");
    printf("  lines       : %d (%d blank, %d CRLF)\n", st->lines, st->blank_lines, st->crlf_lines);
    printf("  paragraphs  : %d", st->paragraphs);
    if (st->paragraphs > 0) {
        printf(" (longest %d words from line %d, average ", st->longest_para, st->longest_para_line);
        print_tenths(TENTHS(st->words + st->numbers, st->paragraphs));
        putchar(')');
    }
    putchar('\n');
    printf("  sentences   : %d", st->sentences);
    if (st->sentences > 0) {
        printf(" (%d unterminated, longest %d words from line %d, average ", st->unterminated,
               st->longest_sent, st->longest_sent_line);
        print_tenths(TENTHS(st->words + st->numbers, st->sentences));
        putchar(')');
    }
    printf(", %d pauses\n", st->pauses);
    printf("  words       : ");
    print_grouped(st->words);
    printf(" (%d distinct, %d once, %d numbers, %d truncated)\n", (int)st->tab.count, once,
           st->numbers, st->truncated);
    printf("  characters  : ");
    print_grouped(st->chars);
    printf(" (letters %ld, upper %ld, digits %ld, spaces %ld", st->letters, st->upper, st->digits,
           st->spaces);
    printf(", punctuation %ld, other %ld)\n", st->punct, st->other);
    printf("  word length : average ");
    print_tenths(TENTHS(st->total_word_len, st->words));
    if (st->longest_word_len > 0)
        printf(", longest \"%s%s\" (%d) on line %d", st->longest_word,
               st->longest_word_len >= MAX_WORD ? "..." : "", st->longest_word_len,
               st->longest_word_line);
    putchar('\n');
    printf("  hash table  : %d buckets, %d rehashes, longest chain %d\n", (int)st->tab.nbuckets,
           st->tab.rehashes, chain);
}

static void reverse_entries(struct entry **v, size_t n) {
    for (size_t i = 0; i < n / 2; i++) {
        struct entry *t = v[i];
        v[i] = v[n - 1 - i];
        v[n - 1 - i] = t;
    }
}

static void report_words(const struct context *cx) {
    const struct options *opt = cx->opt;
    size_t n, i, shown;
    struct entry **v = table_entries(&cx->st->tab, opt->min_len, &n);
    int width = 4;
    if (n == 0) {
        puts("  (no words)");
        free(v);
        return;
    }
    qsort(v, n, sizeof *v, opt->order->cmp);
    if (opt->reverse)
        reverse_entries(v, n);
    shown = MIN(n, (size_t)opt->top);
    for (i = 0; i < shown; i++)
        width = MAX(width, v[i]->len);
    printf("  %d of %d words (length >= %d) by %s%s\n", (int)shown, (int)n, opt->min_len,
           opt->order->name, opt->reverse ? ", reversed" : "");
    for (i = 0; i < shown; i++) {
        const struct entry *e = v[i];
        long pm = PERMILLE(e->count, cx->st->words);
        printf("  %4d. %-*s %4d %3ld.%ld%%  lines %-3d first %d\n", (int)i + 1, width, e->word,
               e->count, pm / 10, pm % 10, e->lines, e->first_line);
    }
    free(v);
}

/* Orders lines longest first, earlier lines first among equals. */
static int line_before(const struct line_rec *a, const struct line_rec *b) {
    if (a->len != b->len)
        return a->len > b->len;
    return a->no < b->no;
}

static void merge_sort(const struct line_rec **v, const struct line_rec **tmp, int lo, int hi) {
    int mid, i, j, k;
    if (hi - lo < 2)
        return;
    mid = lo + (hi - lo) / 2;
    merge_sort(v, tmp, lo, mid);
    merge_sort(v, tmp, mid, hi);
    for (i = lo, j = mid, k = lo; k < hi; k++) {
        if (j >= hi || (i < mid && !line_before(v[j], v[i])))
            tmp[k] = v[i++];
        else
            tmp[k] = v[j++];
    }
    memcpy(v + lo, tmp + lo, (size_t)(hi - lo) * sizeof *v);
}

static void report_lines(const struct context *cx) {
    const struct line_rec **v, **tmp;
    int i, n = 0, shown;
    long total = 0;
    v = malloc(((size_t)cx->nlines + 1) * sizeof *v);
    tmp = malloc(((size_t)cx->nlines + 1) * sizeof *tmp);
    for (i = 0; i < cx->nlines; i++)
        if (cx->lines[i].len > 0) {
            v[n++] = &cx->lines[i];
            total += cx->lines[i].len;
        }
    if (n == 0) {
        puts("  (no text)");
    } else {
        merge_sort(v, tmp, 0, n);
        printf("  %d non-empty lines, average length ", n);
        print_tenths(TENTHS(total, n));
        printf(", median %d, shortest %d (line %d)\n", v[n / 2]->len, v[n - 1]->len, v[n - 1]->no);
        shown = MIN(n, MIN(cx->opt->top, 3));
        for (i = 0; i < shown; i++)
            printf("  line %3d, %3d chars: %.*s%s\n", v[i]->no, v[i]->len, LINE_SHOW, v[i]->text,
                   v[i]->len > LINE_SHOW ? "..." : "");
    }
    free(v);
    free(tmp);
}

static void report_histogram(const struct context *cx) {
    const struct stats *st = cx->st;
    long maxc = 0;
    int len, lo = 0, hi = 0;
    for (len = 1; len <= HIST_MAX; len++) {
        if (st->len_hist[len] == 0)
            continue;
        if (lo == 0)
            lo = len;
        hi = len;
        maxc = MAX(maxc, st->len_hist[len]);
    }
    if (maxc == 0) {
        puts("  (no words)");
        return;
    }
    for (len = lo; len <= hi; len++) {
        long c = st->len_hist[len];
        int w = (int)(c * BAR_WIDTH / maxc), k;
        if (c > 0 && w == 0)
            w = 1;
        printf("  %2d%s |", len, len == HIST_MAX ? "+" : " ");
        for (k = 0; k < w; k++)
            putchar('#');
        printf(" %ld\n", c);
    }
}

static void report_repeats(const struct context *cx) {
    const struct stats *st = cx->st;
    size_t i;
    if (st->nrepeats == 0) {
        puts("  none");
        return;
    }
    for (i = 0; i < st->nrepeats && i < REPEAT_SHOW; i++)
        printf("  line %d, column %d: \"%s %s\"\n", st->repeats[i].line, st->repeats[i].col,
               st->repeats[i].word, st->repeats[i].word);
    if (st->nrepeats > REPEAT_SHOW)
        printf("  ... and %d more\n", (int)(st->nrepeats - REPEAT_SHOW));
}

/* Concordance: the columns of one word within a line. */
struct hits {
    const char *word;
    int cols[MAX_COLS];
    int first_len, n, more;
};

static void on_hit(void *ctx, const struct token *tok) {
    struct hits *h = ctx;
    if (tok->kind != TOK_WORD || strcmp(tok->text, h->word) != 0)
        return;
    if (h->n == 0)
        h->first_len = tok->full_len;
    if (h->n < MAX_COLS)
        h->cols[h->n++] = tok->col;
    else
        h->more++;
}

static void print_snippet(const struct line_rec *line, int col, int wlen) {
    int at = col - 1;
    int from = MAX(0, at - SNIPPET);
    int after = at + wlen;
    int rest = line->len - after;
    printf("%s%.*s[%.*s]%.*s%s", from > 0 ? "..." : "", at - from, line->text + from, wlen,
           line->text + at, MIN(rest, SNIPPET), line->text + after, rest > SNIPPET ? "..." : "");
}

static void concordance(const struct context *cx, const char *query) {
    char key[MAX_WORD];
    const struct entry *e;
    struct hits h;
    int i, k;
    for (i = 0; query[i] != '\0' && i < MAX_WORD - 1; i++)
        key[i] = cx->opt->fold ? (char)tolower((unsigned char)query[i]) : query[i];
    key[i] = '\0';
    e = table_get(&cx->st->tab, key, 0, 0);
    if (e == NULL) {
        printf("== \"%s\": not found ==\n", key);
        return;
    }
    printf("== \"%s\": %d time%s on %d line%s ==\n", key, e->count, e->count == 1 ? "" : "s",
           e->lines, e->lines == 1 ? "" : "s");
    h.word = key;
    for (i = 0; i < cx->nlines; i++) {
        const struct line_rec *line = &cx->lines[i];
        h.n = h.more = 0;
        if (line->no < e->first_line || tokenize(line->text, cx->opt->fold, on_hit, &h) == 0 ||
            h.n == 0)
            continue;
        printf("  %4d:", line->no);
        for (k = 0; k < h.n; k++)
            printf("%c%d", k ? ',' : ' ', h.cols[k]);
        if (h.more)
            printf(" +%d", h.more);
        printf("  ");
        print_snippet(line, h.cols[0], h.first_len);
        putchar('\n');
    }
}

typedef void (*section_fn)(const struct context *);

static const struct section {
    const char *title;
    section_fn fn;
} sections[] = {
    { "words", report_words },
    { "longest lines", report_lines },
    { "word lengths", report_histogram },
    { "repeated words", report_repeats },
};

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv) {
    struct options opt = { .order = &orders[0], .fold = 1, .top = DEFAULT_TOP, .min_len = 1 };
    struct stats st;
    struct line_rec *lines = NULL;
    size_t nlines = 0, cap = 0, i;
    char *text;
    int len, crlf, rc = parse_options(argc, argv, &opt);
    if (rc != 0) {
        usage();
        return rc > 0 ? 0 : 2;
    }
    memset(&st, 0, sizeof st);
    st.fold = opt.fold;
    table_init(&st.tab);
    while ((text = read_line(&len, &crlf)) != NULL) {
        GROW(lines, cap, nlines + 1);
        lines[nlines] = (struct line_rec){ text, len, (int)nlines + 1 };
        nlines++;
        st.crlf_lines += crlf;
        analyse_line(&st, text);
    }
    end_paragraph(&st);
    struct context cx = { &opt, &st, lines, (int)nlines };
    report_summary(&cx);
    if (!opt.quiet) {
        for (i = 0; i < ARRAY_LEN(sections); i++) {
            printf("== %s ==\n", sections[i].title);
            sections[i].fn(&cx);
        }
    }
    for (i = 0; i < (size_t)opt.nqueries; i++)
        concordance(&cx, opt.queries[i]);
    for (i = 0; i < nlines; i++)
        free(lines[i].text);
    free(lines);
    free(st.repeats);
    table_free(&st.tab);
    return 0;
}
