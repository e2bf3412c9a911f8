// Larger program: an inventory and accounting ledger driven by stdin commands: items in a malloc'd linked list, accounts in a realloc'd array, an undo stack of tagged-union operations (recursive multi-undo), a recursively printed category tree, qsort reports with comparator tables, audits, a {name, handler} dispatch table plus an enum switch, a vprintf/vsnprintf logger, goto cleanup paths and an LCG-driven simulation.
// RUN: stdin=ledger.1.in
// RUN: args=-v stdin=ledger.1.in
// RUN: args=-c stdin=ledger.2.in
// RUN: args=-s 7 stdin=ledger.3.in
// RUN: args=-vc -s 12345 stdin=ledger.3.in
// RUN: args=-s42 stdin=ledger.4.in
// RUN: stdin=ledger.5.in
// RUN: args=-c -v stdin=ledger.6.in
// RUN: args=-x stdin="report\n"
// RUN: args=-s stdin="report\n"
// RUN: args=-s 12z stdin="report\n"
// RUN: args=extra stdin="report\n"
// RUN: stdin="item ADD pen 1.25 10\nsell pen 4\nreport\nundo\nundo\nundo\nreport\n"
// RUN: args=-c stdin="account bank 100\ntransfer bank cash 250.5\ntransfer bank cash 25.50\naudit\nquit\nreport\n"
// RUN:
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_LEN 16
#define CAT_LEN 48
#define LINE_LEN 128
#define MAX_TOKENS 8
#define UNDO_CAP 12
#define HIST_CAP 10
#define LOW_STOCK 3
#define RESERVE_CENTS 20000L
#define OPENING_CASH 100000L
#define MAX_QTY 100000
#define CASH(l) ((l)->accts[0].balance)
#define ITEM_PAIR(a, b) \
    const struct item *x = *(const struct item *const *)(a), *y = *(const struct item *const *)(b)
#define ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define STREQ(a, b) (strcmp((a), (b)) == 0)
#define COPY_NAME(dst, src) (strncpy((dst), (src), NAME_LEN - 1), (dst)[NAME_LEN - 1] = '\0')

enum status {
    ST_OK, ST_SYNTAX, ST_NO_ITEM, ST_NO_ACCOUNT, ST_EXISTS, ST_STOCK,
    ST_FUNDS, ST_RANGE, ST_EMPTY, ST_AUDIT, ST_UNKNOWN, ST_NOMEM, ST_QUIT
};

static const char *const status_text[] = {
    "ok", "syntax error", "no such item", "no such account", "already exists",
    "insufficient stock", "insufficient funds", "value out of range",
    "nothing to do", "audit failed", "unknown command", "out of memory", "quit"
};

struct item {
    char name[NAME_LEN], category[CAT_LEN];
    long price;             /* list price per unit, cents */
    int qty, sold;          /* units on hand, units sold */
    long cost, revenue;     /* cost basis of the units on hand, takings; cents */
    struct item *next;
};

struct account { char name[NAME_LEN]; long balance; };

enum op_kind { OP_ADD_ITEM, OP_DEL_ITEM, OP_SELL, OP_BUY, OP_TRANSFER, OP_PRICE, OP_OPEN };

struct op {
    enum op_kind kind;        /* tag of the union below */
    int seq;
    char name[NAME_LEN];      /* the item or account concerned */
    union {
        struct { struct item copy; int position; } del;
        struct { int qty; long revenue, cost; } sell;
        struct { int qty; long total; } buy;
        struct { int from, to; long amount; } transfer;
        struct { long old_price; int percent; } price;
        struct { long opening; } open;
    } u;
};

struct hist_entry { int seq; enum status st; char text[LINE_LEN]; };

struct ledger {
    struct item *items;
    struct account *accts;
    struct op undo[UNDO_CAP];
    struct hist_entry hist[HIST_CAP];
    int nitems, nacct, acap, nundo, nhist, seq;
    long capital, revenue_total, purchase_total;
    int verbose, show_cash, errors;
    unsigned long seed;
};

typedef enum status (*handler_fn)(struct ledger *, int, char **);

static void logmsg(const struct ledger *l, const char *fmt, ...) {
    va_list ap;
    if (!l->verbose) return;
    fputs("  [log] ", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static char *group_digits(char *p, long units) {
    if (units >= 1000) {
        p = group_digits(p, units / 1000);
        p += sprintf(p, ",%03ld", units % 1000);
    } else {
        p += sprintf(p, "%ld", units);
    }
    return p;
}

/* formats cents as 1,234.56 into one of a few rotating buffers */
static const char *money(long cents) {
    static char bufs[6][32];
    static int next;
    char *buf = bufs[next], *p = buf;
    next = (next + 1) % ARRAY_LEN(bufs);
    if (cents < 0) {
        *p++ = '-';
        cents = -cents;
    }
    p = group_digits(p, cents / 100);
    sprintf(p, ".%02ld", cents % 100);
    return buf;
}

static enum status parse_int(const char *s, long lo, long hi, int *out) {
    char *end;
    long v;
    if (!s || !*s) return ST_SYNTAX;
    v = strtol(s, &end, 10);
    if (*end != '\0') return ST_SYNTAX;
    if (v < lo || v > hi) return ST_RANGE;
    *out = (int)v;
    return ST_OK;
}

/* "12", "12.5" or "12.50" -> cents, at least min; at most 7 whole digits, no sign */
static enum status parse_money(const char *s, long min, long *out) {
    long whole = 0, frac = 0;
    int digits = 0, fdigits = 0;
    if (!s || !*s) return ST_SYNTAX;
    for (; isdigit((unsigned char)*s); s++) {
        if (++digits > 7) return ST_RANGE;
        whole = whole * 10 + (*s - '0');
    }
    if (*s == '.') {
        for (s++; isdigit((unsigned char)*s); s++) {
            if (++fdigits > 2) return ST_SYNTAX;
            frac = frac * 10 + (*s - '0');
        }
        if (fdigits == 0) return ST_SYNTAX;
        if (fdigits == 1) frac *= 10;
    }
    if (*s != '\0' || digits == 0) return ST_SYNTAX;
    *out = whole * 100 + frac;
    return *out < min ? ST_RANGE : ST_OK;
}

static int valid_name(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || n >= NAME_LEN || !isalpha((unsigned char)s[0])) return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_') return 0;
    return 1;
}

static int valid_category(const char *s) {
    const char *part = s;
    if (strlen(s) >= CAT_LEN) return 0;
    for (;; s++) {
        if (*s == '/' || *s == '\0') {
            if (s == part || s - part >= NAME_LEN) return 0;
            if (*s == '\0') return 1;
            part = s + 1;
        } else if (!isalnum((unsigned char)*s)) {
            return 0;
        }
    }
}

static struct item *find_item(struct ledger *l, const char *name, struct item ***link) {
    struct item **pp;
    for (pp = &l->items; *pp; pp = &(*pp)->next)
        if (STREQ((*pp)->name, name)) {
            if (link) *link = pp;
            return *pp;
        }
    return NULL;
}

static int find_account(const struct ledger *l, const char *name) {
    int i;
    for (i = 0; i < l->nacct; i++)
        if (STREQ(l->accts[i].name, name)) return i;
    return -1;
}

static unsigned lcg_next(struct ledger *l) {
    l->seed = (l->seed * 1103515245UL + 12345UL) & 0x7fffffffUL;
    return (unsigned)(l->seed >> 16);
}

static struct op *push_op(struct ledger *l, enum op_kind kind, const char *name) {
    struct op *o;
    if (l->nundo == UNDO_CAP) {
        memmove(&l->undo[0], &l->undo[1], (UNDO_CAP - 1) * sizeof l->undo[0]);
        l->nundo--;
        logmsg(l, "undo stack full, oldest entry dropped");
    }
    o = &l->undo[l->nundo++];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->seq = l->seq;
    COPY_NAME(o->name, name);
    return o;
}

enum item_sub { SUB_ADD, SUB_DEL, SUB_SHOW, SUB_PRICE, SUB_BAD };

static enum item_sub decode_sub(const char *w) {
    static const char *const words[] = { "ADD", "DEL", "SHOW", "PRICE" };
    int i;
    for (i = 0; i < ARRAY_LEN(words); i++)
        if (strcasecmp(w, words[i]) == 0) return (enum item_sub)i;
    return SUB_BAD;
}

static enum status item_add(struct ledger *l, int argc, char **argv) {
    struct item *it, **tail;
    enum status st;
    int qty;
    long price;
    if (argc < 5 || argc > 6 || !valid_name(argv[2])) return ST_SYNTAX;
    if (find_item(l, argv[2], NULL)) return ST_EXISTS;
    if (!(it = calloc(1, sizeof *it))) return ST_NOMEM;
    COPY_NAME(it->name, argv[2]);
    if ((st = parse_money(argv[3], 1, &price)) != ST_OK) goto fail;
    if ((st = parse_int(argv[4], 0, MAX_QTY, &qty)) != ST_OK) goto fail;
    st = ST_SYNTAX;
    if (argc == 6 && !valid_category(argv[5])) goto fail;
    strcpy(it->category, argc == 6 ? argv[5] : "misc");
    it->price = price;
    it->qty = qty;
    it->cost = price * qty * 60 / 100;  /* opening stock valued at 60% of list */
    for (tail = &l->items; *tail; tail = &(*tail)->next)
        ;
    *tail = it;
    l->nitems++;
    push_op(l, OP_ADD_ITEM, it->name);
    printf("added %s: %d @ %s in %s\n", it->name, qty, money(price), it->category);
    logmsg(l, "opening cost basis of %s is %s", it->name, money(it->cost));
    return ST_OK;
fail:
    free(it);
    return st;
}

static enum status item_del(struct ledger *l, const char *name) {
    struct item **link, *it = find_item(l, name, &link), **pp;
    struct op *o;
    int pos = 0;
    if (!it) return ST_NO_ITEM;
    for (pp = &l->items; *pp != it; pp = &(*pp)->next) pos++;
    *link = it->next;
    l->nitems--;
    o = push_op(l, OP_DEL_ITEM, it->name);
    o->u.del.copy = *it;
    o->u.del.copy.next = NULL;
    o->u.del.position = pos;
    printf("deleted %s (%d units written off)\n", it->name, it->qty);
    free(it);
    return ST_OK;
}

static enum status cmd_item(struct ledger *l, int argc, char **argv) {
    struct item *it;
    long price;
    enum status st;

    switch (decode_sub(argv[1])) {
    case SUB_ADD:
        return item_add(l, argc, argv);
    case SUB_DEL:
        if (argc != 3) return ST_SYNTAX;
        return item_del(l, argv[2]);
    case SUB_SHOW:
        if (argc != 3) return ST_SYNTAX;
        if (!(it = find_item(l, argv[2], NULL))) return ST_NO_ITEM;
        printf("%s [%s] qty %d price %s cost %s sold %d revenue %s\n", it->name,
               it->category, it->qty, money(it->price), money(it->cost), it->sold,
               money(it->revenue));
        return ST_OK;
    case SUB_PRICE:
        if (argc != 4) return ST_SYNTAX;
        if (!(it = find_item(l, argv[2], NULL))) return ST_NO_ITEM;
        if ((st = parse_money(argv[3], 1, &price)) != ST_OK) return st;
        push_op(l, OP_PRICE, it->name)->u.price.old_price = it->price;
        printf("price of %s: %s -> %s\n", it->name, money(it->price), money(price));
        it->price = price;
        return ST_OK;
    case SUB_BAD:
        break;
    }
    return ST_SYNTAX;
}

static enum status cmd_sell(struct ledger *l, int argc, char **argv) {
    struct item *it;
    struct op *o;
    int qty;
    long rev, cost;
    enum status st;
    (void)argc;
    if (!(it = find_item(l, argv[1], NULL))) return ST_NO_ITEM;
    if ((st = parse_int(argv[2], 1, MAX_QTY, &qty)) != ST_OK) return st;
    if (qty > it->qty) {
        logmsg(l, "wanted %d of %s, only %d on hand", qty, it->name, it->qty);
        return ST_STOCK;
    }
    rev = it->price * qty;
    cost = it->cost * qty / it->qty;
    it->qty -= qty;
    it->cost -= cost;
    it->sold += qty;
    it->revenue += rev;
    CASH(l) += rev;
    l->revenue_total += rev;
    o = push_op(l, OP_SELL, it->name);
    o->u.sell.qty = qty;
    o->u.sell.revenue = rev;
    o->u.sell.cost = cost;
    printf("sold %d %s for %s (margin %s)\n", qty, it->name, money(rev), money(rev - cost));
    return ST_OK;
}

static enum status cmd_buy(struct ledger *l, int argc, char **argv) {
    struct item *it;
    struct op *o;
    int qty;
    long unit, total;
    enum status st;
    (void)argc;
    if (!(it = find_item(l, argv[1], NULL))) return ST_NO_ITEM;
    if ((st = parse_int(argv[2], 1, MAX_QTY, &qty)) != ST_OK) return st;
    if ((st = parse_money(argv[3], 0, &unit)) != ST_OK) return st;
    total = unit * qty;
    if (total > CASH(l)) {
        logmsg(l, "purchase of %s needs %s, cash is %s", it->name, money(total),
               money(CASH(l)));
        return ST_FUNDS;
    }
    it->qty += qty;
    it->cost += total;
    CASH(l) -= total;
    l->purchase_total += total;
    o = push_op(l, OP_BUY, it->name);
    o->u.buy.qty = qty;
    o->u.buy.total = total;
    printf("bought %d %s for %s\n", qty, it->name, money(total));
    return ST_OK;
}

static enum status cmd_discount(struct ledger *l, int argc, char **argv) {
    struct item *it;
    struct op *o;
    int pct;
    long np;
    enum status st;
    (void)argc;
    if (!(it = find_item(l, argv[1], NULL))) return ST_NO_ITEM;
    if ((st = parse_int(argv[2], 1, 90, &pct)) != ST_OK) return st;
    np = (it->price * (100 - pct) + 50) / 100;
    if (np == 0) return ST_RANGE;
    o = push_op(l, OP_PRICE, it->name);
    o->u.price.old_price = it->price;
    o->u.price.percent = pct;
    printf("discount %d%% on %s: %s -> %s\n", pct, it->name, money(it->price), money(np));
    it->price = np;
    return ST_OK;
}

static enum status add_account(struct ledger *l, const char *name, long opening) {
    if (l->nacct == l->acap) {
        int ncap = l->acap ? l->acap * 2 : 2;
        struct account *na = realloc(l->accts, (size_t)ncap * sizeof *na);
        if (!na) return ST_NOMEM;
        l->accts = na;
        l->acap = ncap;
        logmsg(l, "account table grown to %d", ncap);
    }
    COPY_NAME(l->accts[l->nacct].name, name);
    l->accts[l->nacct].balance = opening;
    l->nacct++;
    l->capital += opening;
    return ST_OK;
}

static enum status cmd_account(struct ledger *l, int argc, char **argv) {
    long amount;
    enum status st;
    (void)argc;
    if (!valid_name(argv[1])) return ST_SYNTAX;
    if (find_account(l, argv[1]) >= 0) return ST_EXISTS;
    if ((st = parse_money(argv[2], 0, &amount)) != ST_OK) return st;
    if ((st = add_account(l, argv[1], amount)) != ST_OK) return st;
    push_op(l, OP_OPEN, argv[1])->u.open.opening = amount;
    printf("opened account %s with %s\n", argv[1], money(amount));
    return ST_OK;
}

static enum status cmd_transfer(struct ledger *l, int argc, char **argv) {
    struct op *o;
    int from = find_account(l, argv[1]), to = find_account(l, argv[2]);
    long amount;
    enum status st;
    (void)argc;
    if (from < 0 || to < 0) return ST_NO_ACCOUNT;
    if (from == to) return ST_RANGE;
    if ((st = parse_money(argv[3], 1, &amount)) != ST_OK) return st;
    if (amount > l->accts[from].balance) return ST_FUNDS;
    l->accts[from].balance -= amount;
    l->accts[to].balance += amount;
    o = push_op(l, OP_TRANSFER, l->accts[from].name);
    o->u.transfer.from = from;
    o->u.transfer.to = to;
    o->u.transfer.amount = amount;
    printf("moved %s from %s to %s\n", money(amount), l->accts[from].name, l->accts[to].name);
    return ST_OK;
}

static enum status undo_one(struct ledger *l) {
    struct op *o;
    struct item *it, **pp;
    int i;
    if (l->nundo == 0) return ST_EMPTY;
    o = &l->undo[--l->nundo];
    switch (o->kind) {
    case OP_ADD_ITEM:
        it = find_item(l, o->name, &pp);
        *pp = it->next;
        l->nitems--;
        printf("undo #%d: remove item %s\n", o->seq, it->name);
        free(it);
        break;
    case OP_DEL_ITEM:
        if (!(it = malloc(sizeof *it))) return ST_NOMEM;
        *it = o->u.del.copy;
        for (pp = &l->items, i = 0; i < o->u.del.position; i++) pp = &(*pp)->next;
        it->next = *pp;
        *pp = it;
        l->nitems++;
        printf("undo #%d: restore item %s\n", o->seq, it->name);
        break;
    case OP_SELL:
        it = find_item(l, o->name, NULL);
        it->qty += o->u.sell.qty;
        it->cost += o->u.sell.cost;
        it->sold -= o->u.sell.qty;
        it->revenue -= o->u.sell.revenue;
        CASH(l) -= o->u.sell.revenue;
        l->revenue_total -= o->u.sell.revenue;
        printf("undo #%d: unsell %d %s\n", o->seq, o->u.sell.qty, it->name);
        break;
    case OP_BUY:
        it = find_item(l, o->name, NULL);
        it->qty -= o->u.buy.qty;
        it->cost -= o->u.buy.total;
        CASH(l) += o->u.buy.total;
        l->purchase_total -= o->u.buy.total;
        printf("undo #%d: return %d %s\n", o->seq, o->u.buy.qty, it->name);
        break;
    case OP_TRANSFER:
        l->accts[o->u.transfer.from].balance += o->u.transfer.amount;
        l->accts[o->u.transfer.to].balance -= o->u.transfer.amount;
        printf("undo #%d: move %s back to %s\n", o->seq, money(o->u.transfer.amount),
               l->accts[o->u.transfer.from].name);
        break;
    case OP_PRICE:
        it = find_item(l, o->name, NULL);
        printf("undo #%d: %s price %s -> %s%s\n", o->seq, it->name, money(it->price),
               money(o->u.price.old_price), o->u.price.percent ? " (discount)" : "");
        it->price = o->u.price.old_price;
        break;
    case OP_OPEN:
        l->nacct--;
        l->capital -= o->u.open.opening;
        printf("undo #%d: close account %s\n", o->seq, l->accts[l->nacct].name);
        break;
    }
    return ST_OK;
}

static enum status undo_n(struct ledger *l, int n, int done) {
    enum status st;
    if (n == 0) return ST_OK;
    st = undo_one(l);
    if (st != ST_OK) return done > 0 ? ST_OK : st;
    logmsg(l, "%d undone, %d to go", done + 1, n - 1);
    return undo_n(l, n - 1, done + 1);
}

static enum status cmd_undo(struct ledger *l, int argc, char **argv) {
    int n = 1;
    enum status st;
    if (argc == 2 && (st = parse_int(argv[1], 1, UNDO_CAP, &n)) != ST_OK) return st;
    return undo_n(l, n, 0);
}

static int by_name(const void *a, const void *b) {
    ITEM_PAIR(a, b);
    return strcmp(x->name, y->name);
}

static int by_value(const void *a, const void *b) {
    ITEM_PAIR(a, b);
    long vx = x->price * x->qty, vy = y->price * y->qty;
    return vx != vy ? (vx < vy ? 1 : -1) : by_name(a, b);
}

static int by_qty(const void *a, const void *b) {
    ITEM_PAIR(a, b);
    return x->qty != y->qty ? x->qty - y->qty : by_name(a, b);
}

static int by_revenue(const void *a, const void *b) {
    ITEM_PAIR(a, b);
    return x->revenue != y->revenue ? (x->revenue < y->revenue ? 1 : -1) : by_name(a, b);
}

static const struct {
    const char *key;
    int (*cmp)(const void *, const void *);
} sort_keys[] = {
    { "name", by_name }, { "value", by_value }, { "qty", by_qty }, { "revenue", by_revenue },
};

static enum status cmd_report(struct ledger *l, int argc, char **argv) {
    struct item **arr = NULL, *it;
    int k = 0, i, n = 0;
    long stock = 0, basis = 0, rev = 0, money_total = 0;
    enum status st = ST_OK;

    if (argc == 2) {
        for (k = 0; k < ARRAY_LEN(sort_keys); k++)
            if (STREQ(argv[1], sort_keys[k].key)) break;
        if (k == ARRAY_LEN(sort_keys)) return ST_SYNTAX;
    }
    printf("report by %s, %d item%s\n", sort_keys[k].key, l->nitems, l->nitems == 1 ? "" : "s");
    if (l->nitems > 0) {
        arr = malloc((size_t)l->nitems * sizeof *arr);
        if (!arr) {
            st = ST_NOMEM;
            goto fail;
        }
        for (it = l->items; it; it = it->next) arr[n++] = it;
        qsort(arr, (size_t)n, sizeof *arr, sort_keys[k].cmp);
        printf("  %-12s %5s %10s %12s %5s %12s\n", "item", "qty", "price", "stock", "sold",
               "revenue");
        for (i = 0; i < n; i++) {
            it = arr[i];
            printf("  %-12s %5d %10s %12s %5d %12s\n", it->name, it->qty, money(it->price),
                   money(it->price * it->qty), it->sold, money(it->revenue));
            stock += it->price * it->qty;
            basis += it->cost;
            rev += it->revenue;
        }
    }
    for (i = 0; i < l->nacct; i++) {
        printf("  account %-10s %14s\n", l->accts[i].name, money(l->accts[i].balance));
        money_total += l->accts[i].balance;
    }
    printf("  totals: stock %s (cost %s), revenue %s, money %s\n", money(stock), money(basis),
           money(rev), money(money_total));
    printf("  net worth at cost: %s\n", money(money_total + basis));
fail:
    free(arr);
    return st;
}

struct cat {
    char name[NAME_LEN];
    int count;                   /* units in this category and below */
    long value;
    struct cat *child, *sibling; /* first child; next sibling in name order */
};

static struct cat *cat_child(struct cat *parent, const char *name, size_t len) {
    struct cat **pp, *c;
    for (pp = &parent->child; *pp; pp = &(*pp)->sibling) {
        int cmp = strncmp((*pp)->name, name, len);
        if (cmp == 0 && (*pp)->name[len] == '\0') return *pp;
        if (cmp > 0) break;
    }
    c = calloc(1, sizeof *c);
    if (!c) return NULL;
    memcpy(c->name, name, len);
    c->sibling = *pp;
    *pp = c;
    return c;
}

static void cat_free(struct cat *c) {
    if (!c) return;
    cat_free(c->child);
    cat_free(c->sibling);
    free(c);
}

static void cat_print(const struct ledger *l, const struct cat *c, int depth, const char *prefix) {
    char path[CAT_LEN + NAME_LEN];
    const struct item *it;
    for (; c; c = c->sibling) {
        if (*prefix)
            snprintf(path, sizeof path, "%s/%s", prefix, c->name);
        else
            snprintf(path, sizeof path, "%s", c->name);
        printf("%*s%s: %d unit%s, %s\n", depth * 2, "", c->name, c->count,
               c->count == 1 ? "" : "s", money(c->value));
        for (it = l->items; it; it = it->next)
            if (STREQ(it->category, path))
                printf("%*s- %s x%d\n", depth * 2 + 2, "", it->name, it->qty);
        cat_print(l, c->child, depth + 1, path);
    }
}

static enum status cmd_tree(struct ledger *l, int argc, char **argv) {
    struct cat root;
    struct item *it;
    enum status st = ST_OK;
    (void)argc, (void)argv;
    memset(&root, 0, sizeof root);
    if (!l->items) return ST_EMPTY;
    for (it = l->items; it; it = it->next) {
        struct cat *node = &root;
        const char *p = it->category;
        for (;;) {
            size_t len = strcspn(p, "/");
            node = cat_child(node, p, len);
            if (!node) {
                st = ST_NOMEM;
                goto fail;
            }
            node->count += it->qty;
            node->value += it->price * it->qty;
            if (p[len] == '\0') break;
            p += len + 1;
        }
    }
    cat_print(l, root.child, 0, "");
fail:
    cat_free(root.child);
    return st;
}

struct audit_ctx { int problems, warnings; };

static void audit_note(struct audit_ctx *a, int fatal, const char *fmt, ...) {
    char msg[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    printf("  %s: %s\n", fatal ? "FAIL" : "warn", msg);
    ++*(fatal ? &a->problems : &a->warnings);
}

static enum status cmd_audit(struct ledger *l, int argc, char **argv) {
    struct audit_ctx a = { 0, 0 };
    const struct item *it;
    long sum = 0, expect;
    int i;
    (void)argc, (void)argv;
    for (i = 0; i < l->nacct; i++) {
        sum += l->accts[i].balance;
        if (l->accts[i].balance < 0) audit_note(&a, 1, "account %s is negative", l->accts[i].name);
    }
    expect = l->capital + l->revenue_total - l->purchase_total;
    if (sum != expect) audit_note(&a, 1, "books off by %s", money(sum - expect));
    if (CASH(l) < RESERVE_CENTS)
        audit_note(&a, 1, "cash %s below reserve %s", money(CASH(l)), money(RESERVE_CENTS));
    for (it = l->items; it; it = it->next) {
        if (it->qty == 0 && it->sold == 0)
            audit_note(&a, 1, "%s was never stocked", it->name);
        else if (it->qty > 0 && it->price * it->qty < it->cost)
            audit_note(&a, 1, "%s priced below cost (%s < %s/unit)", it->name, money(it->price),
                       money(it->cost / it->qty));
        if (it->qty <= LOW_STOCK) audit_note(&a, 0, "%s low on stock (%d)", it->name, it->qty);
    }
    printf("audit: %d problem%s, %d warning%s\n", a.problems, a.problems == 1 ? "" : "s",
           a.warnings, a.warnings == 1 ? "" : "s");
    return a.problems ? ST_AUDIT : ST_OK;
}

static enum status cmd_history(struct ledger *l, int argc, char **argv) {
    int n = 5, i;
    enum status st;
    if (argc == 2 && (st = parse_int(argv[1], 1, 1000, &n)) != ST_OK) return st;
    if (l->nhist == 0) return ST_EMPTY;
    if (n > HIST_CAP) n = HIST_CAP;
    if (n > l->nhist) n = l->nhist;
    for (i = l->nhist - n; i < l->nhist; i++) {
        const struct hist_entry *h = &l->hist[i % HIST_CAP];
        printf("  %3d %-18s %s\n", h->seq, status_text[h->st], h->text);
    }
    return ST_OK;
}

static enum status execute(struct ledger *l, char *line, int depth);

static enum status cmd_simulate(struct ledger *l, int argc, char **argv) {
    int n, i, ok = 0, failed = 0;
    enum status st;
    (void)argc;
    if ((st = parse_int(argv[1], 1, 40, &n)) != ST_OK) return st;
    if (l->nitems == 0) return ST_EMPTY;
    for (i = 0; i < n; i++) {
        char line[LINE_LEN];
        const struct item *it = l->items;
        unsigned pick = lcg_next(l) % (unsigned)l->nitems, kind = lcg_next(l) % 5;
        unsigned amount = lcg_next(l);
        while (pick-- > 0) it = it->next;
        if (kind < 3) {
            snprintf(line, sizeof line, "sell %s %u", it->name, 1 + amount % 4);
        } else if (kind == 3) {
            long unit = it->price * (long)(40 + amount % 50) / 100;
            snprintf(line, sizeof line, "buy %s %u %ld.%02ld", it->name, 1 + amount % 6,
                     unit / 100, unit % 100);
        } else {
            snprintf(line, sizeof line, "discount %s %u", it->name, 5 + amount % 11);
        }
        printf("sim %d: %s\n", i + 1, line);
        ++*(execute(l, line, 1) == ST_OK ? &ok : &failed);
    }
    printf("simulated %d: %d ok, %d failed\n", n, ok, failed);
    return ST_OK;
}

static const struct command {
    const char *name;
    handler_fn fn;
    int min_args, max_args, nested;  /* nested: may run inside simulate */
    const char *usage;
} commands[] = {
    { "item", cmd_item, 2, 5, 0, "item ADD|DEL|SHOW|PRICE name [price qty [category]]" },
    { "sell", cmd_sell, 2, 2, 1, "sell name qty" },
    { "buy", cmd_buy, 3, 3, 1, "buy name qty price" },
    { "discount", cmd_discount, 2, 2, 1, "discount name percent" },
    { "account", cmd_account, 2, 2, 0, "account name opening" },
    { "transfer", cmd_transfer, 3, 3, 0, "transfer from to amount" },
    { "undo", cmd_undo, 0, 1, 0, "undo [n]" },
    { "report", cmd_report, 0, 1, 0, "report [name|value|qty|revenue]" },
    { "tree", cmd_tree, 0, 0, 0, "tree" },
    { "audit", cmd_audit, 0, 0, 0, "audit" },
    { "history", cmd_history, 0, 1, 0, "history [n]" },
    { "simulate", cmd_simulate, 1, 1, 0, "simulate n" },
    { "quit", NULL, 0, 0, 0, "quit" },
};

static int tokenize(char *s, char **tok, int max) {
    int n = 0;
    for (;;) {
        while (isspace((unsigned char)*s)) s++;
        if (*s == '\0' || *s == '#') return n;
        if (n == max) return -1;
        tok[n++] = s;
        while (*s && !isspace((unsigned char)*s)) s++;
        if (*s) *s++ = '\0';
    }
}

static void record(struct ledger *l, const char *text, enum status st, int seq) {
    struct hist_entry *h = &l->hist[l->nhist % HIST_CAP];
    h->seq = seq;
    h->st = st;
    snprintf(h->text, sizeof h->text, "%s", text);
    l->nhist++;
}

static enum status execute(struct ledger *l, char *line, int depth) {
    char copy[LINE_LEN], *tok[MAX_TOKENS];
    const struct command *c = NULL;
    enum status st;
    int n, i, seq;

    line[strcspn(line, "\r\n")] = '\0';
    snprintf(copy, sizeof copy, "%s", line);
    if ((n = tokenize(line, tok, MAX_TOKENS)) == 0) return ST_OK;
    seq = ++l->seq;
    for (i = 0; n > 0 && !c && i < ARRAY_LEN(commands); i++)
        if (STREQ(tok[0], commands[i].name)) c = &commands[i];
    if (n < 0)
        st = ST_SYNTAX;
    else if (!c || (depth > 0 && !c->nested))  /* simulate only runs trading commands */
        st = ST_UNKNOWN;
    else if (n - 1 < c->min_args || n - 1 > c->max_args)
        st = ST_SYNTAX;
    else {
        logmsg(l, "#%d %s with %d argument%s", seq, c->name, n - 1, n == 2 ? "" : "s");
        st = c->fn ? c->fn(l, n, tok) : ST_QUIT;
    }
    if (st != ST_OK && st != ST_QUIT) {
        printf("error #%d: %s: %s\n", seq, n > 0 ? tok[0] : "?", status_text[st]);
        if (c && st == ST_SYNTAX) printf("  usage: %s\n", c->usage);
        if (depth == 0) l->errors++;
    }
    record(l, copy, st, seq);
    if (l->show_cash && depth == 0) printf("  cash %s\n", money(CASH(l)));
    return st;
}

static int parse_options(struct ledger *l, int argc, char **argv) {
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0') {
            printf("unexpected argument '%s'\n", a);
            return -1;
        }
        for (a++; *a; a++) {
            switch (*a) {
            case 'v': l->verbose = 1; break;
            case 'c': l->show_cash = 1; break;
            case 's': {
                const char *v = a[1] ? a + 1 : (i + 1 < argc ? argv[++i] : NULL);
                char *end;
                if (!v) {
                    printf("option -s needs a seed\n");
                    return -1;
                }
                l->seed = strtoul(v, &end, 10);
                if (*end != '\0' || end == v) {
                    printf("bad seed '%s'\n", v);
                    return -1;
                }
                if (v == a + 1)
                    a = end - 1;  /* the rest of this word was the seed */
                break;
            }
            default:
                printf("unknown option -%c\n", *a);
                return -1;
            }
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    struct ledger l;
    char line[LINE_LEN];
    int rc = 0, lineno = 0;
    struct item *it, *next;

    memset(&l, 0, sizeof l);
    l.seed = 1;
    if (parse_options(&l, argc, argv) != 0) {
        printf("usage: ledger [-v] [-c] [-s seed] < commands\n");
        return 2;
    }
    if (add_account(&l, "cash", OPENING_CASH) != ST_OK) {
        rc = 3;
        goto cleanup;
    }
    logmsg(&l, "seed %lu, opening cash %s", l.seed, money(OPENING_CASH));
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        if (!strchr(line, '\n') && strlen(line) == sizeof line - 1) {
            int ch;
            while ((ch = getchar()) != EOF && ch != '\n')
                ;
            printf("line %d too long, ignored\n", lineno);
            l.errors++;
            continue;
        }
        if (execute(&l, line, 0) == ST_QUIT) {
            printf("quit after %d line%s\n", lineno, lineno == 1 ? "" : "s");
            break;
        }
    }
    printf("%d command%s, %d error%s, cash %s\n", l.seq, l.seq == 1 ? "" : "s", l.errors,
           l.errors == 1 ? "" : "s", money(CASH(&l)));
    rc = l.errors ? 1 : 0;
cleanup:
    for (it = l.items; it; it = next) {
        next = it->next;
        free(it);
    }
    free(l.accts);
    return rc;
}
