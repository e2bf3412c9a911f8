/*
 * sched - a priority scheduler simulation driven by its command line
 *
 * usage: sched [-v] [-q TICKS] [-a WAIT] [COMMAND...]
 *
 * Processes wait in three ready queues, priority 1 (lowest) to 3 (highest), or
 * in the blocked queue; the head of the highest non-empty ready queue runs.
 * Commands (or unambiguous prefixes of two letters or more, in any case):
 *
 *   new P        create a process of priority P (1-3)
 *   upgrade P R  move the process at ratio R of ready queue P one level up
 *   block        the running process blocks
 *   unblock R    the process at ratio R of the blocked queue becomes ready
 *   quantum      the running process has used up its time slice
 *   tick N       the running process runs for N ticks (1-1000)
 *   finish       the running process finishes
 *   flush        every ready process finishes, in the order they would run
 *   status       print the clock and the queues
 *
 * A ratio is "0.25", ".5", "1", "40%" or "2/3"; in a queue of n processes it
 * picks the one at index floor(n * R), the last one when R is 1.  A process
 * whose slice expires goes to the back of its queue, and drops a level after
 * three slices at one level.  -v prints every event, -q sets the ticks of a
 * slice (1-20, default 4), -a WAIT raises a ready process a level once it has
 * waited WAIT ticks (1-1000), and one more each time its wait doubles.
 *
 * Prints the finished processes in the order they finished, then what is left.
 * Exits 1 on a usage error, 2 on a malformed command, 3 when the table is full.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NPRIO        3
#define MAXPROC      40
#define NAMELEN      13
#define LINEWIDTH    60
#define MAXTICK      1000
#define DEFQUANTUM   4
#define DEMOTE_AFTER 3
#define NONE         (-1)

enum pstate { READY, RUNNING, BLOCKED, DONE };

struct proc {
    int prio;
    enum pstate state;
    int arrival;            /* clock when it was created */
    int waited;             /* ticks spent ready since it last ran */
    int slices;             /* slices expired at the current level */
    int next;               /* next process in the same queue */
    char name[NAMELEN];
};

struct queue {
    int head, tail, len;
};

struct sched {
    struct proc procs[MAXPROC];
    int nprocs;
    struct queue ready[NPRIO + 1];      /* index 0 is unused */
    struct queue blocked;
    int current;
    int clock;
    int quantum;
    int age_limit;                      /* 0: no aging */
    int verbose;
    int order[MAXPROC];
    int nfinished;
    long turnaround;                    /* sum of finish - arrival */
};

struct command {
    const char *name;
    int nargs;
    int (*run)(struct sched *s, char **args);
};

struct outline {
    char buf[LINEWIDTH + 1];
    int len, lines;
};

static const char *progname = "sched";

static int fail(int code, const char *what, const char *word)
{
    fprintf(stderr, "%s: %s '%s'\n", progname, what, word);
    return code;
}

/* Parses the n characters at s as a decimal number in [lo, hi]. */
static int parse_span(const char *s, size_t n, int lo, int hi, int *out)
{
    long v = 0;
    size_t i;
    if (n == 0 || n > 6)
        return 0;
    for (i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return 0;
        v = v * 10 + (s[i] - '0');
    }
    if (v < lo || v > hi)
        return 0;
    *out = (int)v;
    return 1;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    return parse_span(s, strlen(s), lo, hi, out);
}

/* Parses a ratio into thousandths: "0.25", ".5", "1", "40%", "2/3". */
static int parse_ratio(const char *s, int *out)
{
    const char *slash = strchr(s, '/');
    size_t len = strlen(s);
    int num, den, whole = 0, frac = 0, digits = 0, seen = 0;
    if (len == 0 || len > 12)
        return 0;
    if (slash != NULL) {
        if (!parse_span(s, (size_t)(slash - s), 0, 999, &num) ||
            !parse_int(slash + 1, 1, 999, &den) || num > den)
            return 0;
        *out = (num * 1000 + den / 2) / den;
        return 1;
    }
    if (s[len - 1] == '%') {
        if (!parse_span(s, len - 1, 0, 100, &num))
            return 0;
        *out = num * 10;
        return 1;
    }
    for (; isdigit((unsigned char)*s); s++, seen++) {
        whole = whole * 10 + (*s - '0');
        if (whole > 1)
            return 0;
    }
    if (*s == '.') {
        for (s++; isdigit((unsigned char)*s); s++, seen++) {
            if (digits < 3) {
                frac = frac * 10 + (*s - '0');
                digits++;
            }
        }
    }
    if (*s != '\0' || seen == 0)
        return 0;
    for (; digits < 3; digits++)
        frac *= 10;
    if (whole == 1 && frac != 0)
        return 0;
    *out = whole * 1000 + frac;
    return 1;
}

/* The index a ratio (in thousandths) picks in a queue of n > 0 processes. */
static int pick_index(int n, int ratio)
{
    int i = n * ratio / 1000;
    if (i >= n)
        i = n - 1;
    return i;
}

static void queue_append(struct sched *s, struct queue *q, int p)
{
    s->procs[p].next = NONE;
    if (q->tail == NONE)
        q->head = p;
    else
        s->procs[q->tail].next = p;
    q->tail = p;
    q->len++;
}

static void queue_prepend(struct sched *s, struct queue *q, int p)
{
    s->procs[p].next = q->head;
    q->head = p;
    if (q->tail == NONE)
        q->tail = p;
    q->len++;
}

/* Removes and returns the process at index i of q, NONE if there is none. */
static int queue_take(struct sched *s, struct queue *q, int i)
{
    int prev = NONE, p = q->head;
    while (i > 0 && p != NONE) {
        prev = p;
        p = s->procs[p].next;
        i--;
    }
    if (p == NONE)
        return NONE;
    if (prev == NONE)
        q->head = s->procs[p].next;
    else
        s->procs[prev].next = s->procs[p].next;
    if (q->tail == p)
        q->tail = prev;
    q->len--;
    s->procs[p].next = NONE;
    return p;
}

/* The index of process p in q, NONE if it is not there. */
static int queue_index(const struct sched *s, const struct queue *q, int p)
{
    int i = 0, k;
    for (k = q->head; k != NONE; k = s->procs[k].next, i++)
        if (k == p)
            return i;
    return NONE;
}

static void event(const struct sched *s, const char *what, int p)
{
    if (s->verbose)
        printf("%6d  %-8s %s (prio %d)\n", s->clock, what, s->procs[p].name,
               s->procs[p].prio);
}

static int highest_ready(const struct sched *s)
{
    int prio;
    for (prio = NPRIO; prio >= 1; prio--)
        if (s->ready[prio].len > 0)
            return prio;
    return 0;
}

/* Runs the first process of the highest non-empty ready queue. */
static void dispatch(struct sched *s)
{
    int prio = highest_ready(s);
    if (prio == 0) {
        s->current = NONE;
        return;
    }
    s->current = queue_take(s, &s->ready[prio], 0);
    s->procs[s->current].state = RUNNING;
    s->procs[s->current].waited = 0;
    event(s, "run", s->current);
}

/* Lets a ready process of higher priority than the running one run. */
static void preempt(struct sched *s)
{
    struct proc *p;
    if (s->current == NONE) {
        dispatch(s);
        return;
    }
    p = &s->procs[s->current];
    if (highest_ready(s) >= p->prio) {
        p->state = READY;
        queue_prepend(s, &s->ready[p->prio], s->current);
        event(s, "preempt", s->current);
        dispatch(s);
    }
}

/* Levels a process that has waited the given ticks rises. */
static int aging_levels(int waited, int limit)
{
    int doubled;
    if (waited < limit)
        return 0;
    doubled = limit * 2;
    return 1 + aging_levels(waited, doubled);
}

static void age(struct sched *s)
{
    int p, levels, prio;
    for (p = 0; p < s->nprocs; p++) {
        struct proc *r = &s->procs[p];
        if (r->state != READY || r->prio == NPRIO)
            continue;
        levels = aging_levels(r->waited, s->age_limit);
        if (levels == 0)
            continue;
        prio = r->prio + levels;
        if (prio > NPRIO)
            prio = NPRIO;
        queue_take(s, &s->ready[r->prio], queue_index(s, &s->ready[r->prio], p));
        r->prio = prio;
        r->slices = 0;
        r->waited = 0;
        queue_append(s, &s->ready[prio], p);
        event(s, "age", p);
    }
}

/* The running process runs for n ticks; every ready process waits for them. */
static void advance(struct sched *s, int n)
{
    int p;
    s->clock += n;
    for (p = 0; p < s->nprocs; p++) {
        if (s->procs[p].state == READY)
            s->procs[p].waited += n;
    }
    if (s->age_limit > 0)
        age(s);
}

static void finish_current(struct sched *s)
{
    struct proc *p = &s->procs[s->current];
    p->state = DONE;
    s->order[s->nfinished++] = s->current;
    s->turnaround += s->clock - p->arrival;
    event(s, "finish", s->current);
    dispatch(s);
}

static int cmd_new(struct sched *s, char **args)
{
    struct proc *p;
    int prio;
    if (!parse_int(args[0], 1, NPRIO, &prio))
        return fail(2, "bad priority", args[0]);
    if (s->nprocs >= MAXPROC)
        return fail(3, "process table full at", args[0]);
    p = &s->procs[s->nprocs];
    memset(p, 0, sizeof *p);
    p->prio = prio;
    p->state = READY;
    p->arrival = s->clock;
    snprintf(p->name, sizeof p->name, "p%d", s->nprocs + 1);
    queue_append(s, &s->ready[prio], s->nprocs);
    event(s, "new", s->nprocs);
    s->nprocs++;
    preempt(s);
    return 0;
}

static int cmd_upgrade(struct sched *s, char **args)
{
    int prio, ratio, p;
    if (!parse_int(args[0], 1, NPRIO, &prio))
        return fail(2, "bad priority", args[0]);
    if (!parse_ratio(args[1], &ratio))
        return fail(2, "bad ratio", args[1]);
    if (prio == NPRIO || s->ready[prio].len == 0)
        return 0;
    p = queue_take(s, &s->ready[prio], pick_index(s->ready[prio].len, ratio));
    if (p == NONE)
        return 0;
    s->procs[p].prio = prio + 1;
    s->procs[p].slices = 0;
    queue_append(s, &s->ready[prio + 1], p);
    event(s, "upgrade", p);
    preempt(s);
    return 0;
}

static int cmd_block(struct sched *s, char **args)
{
    struct proc *p;
    (void)args;
    if (s->current == NONE)
        return 0;
    p = &s->procs[s->current];
    p->state = BLOCKED;
    queue_append(s, &s->blocked, s->current);
    event(s, "block", s->current);
    dispatch(s);
    return 0;
}

static int cmd_unblock(struct sched *s, char **args)
{
    int ratio, p;
    if (!parse_ratio(args[0], &ratio))
        return fail(2, "bad ratio", args[0]);
    if (s->blocked.len == 0)
        return 0;
    p = queue_take(s, &s->blocked, pick_index(s->blocked.len, ratio));
    if (p == NONE)
        return 0;
    s->procs[p].state = READY;
    s->procs[p].waited = 0;
    queue_append(s, &s->ready[s->procs[p].prio], p);
    event(s, "unblock", p);
    preempt(s);
    return 0;
}

static int cmd_quantum(struct sched *s, char **args)
{
    struct proc *p;
    (void)args;
    if (s->current == NONE)
        return 0;
    advance(s, s->quantum);
    p = &s->procs[s->current];
    p->slices++;
    if (p->slices >= DEMOTE_AFTER && p->prio > 1) {
        p->prio--;
        p->slices = 0;
    }
    p->state = READY;
    queue_append(s, &s->ready[p->prio], s->current);
    event(s, "expire", s->current);
    dispatch(s);
    return 0;
}

static int cmd_tick(struct sched *s, char **args)
{
    int n;
    if (!parse_int(args[0], 1, MAXTICK, &n))
        return fail(2, "bad tick count", args[0]);
    if (s->current == NONE)
        return 0;
    advance(s, n);
    preempt(s);
    return 0;
}

static int cmd_finish(struct sched *s, char **args)
{
    (void)args;
    if (s->current != NONE)
        finish_current(s);
    return 0;
}

static int cmd_flush(struct sched *s, char **args)
{
    (void)args;
    while (s->current != NONE)
        finish_current(s);
    return 0;
}

/* Prints the processes of a queue from p on, each after a space. */
static void print_chain(const struct sched *s, int p)
{
    int next;
    if (p == NONE)
        return;
    printf(" %s", s->procs[p].name);
    next = s->procs[p].next;
    print_chain(s, next);
}

static int cmd_status(struct sched *s, char **args)
{
    int prio;
    (void)args;
    printf("[%d] run %s |", s->clock,
           s->current == NONE ? "-" : s->procs[s->current].name);
    for (prio = NPRIO; prio >= 1; prio--) {
        printf(" %d:", prio);
        print_chain(s, s->ready[prio].head);
    }
    printf(" | blocked:");
    print_chain(s, s->blocked.head);
    printf("\n");
    return 0;
}

static const struct command commands[] = {
    { "new", 1, cmd_new },
    { "upgrade", 2, cmd_upgrade },
    { "block", 0, cmd_block },
    { "unblock", 1, cmd_unblock },
    { "quantum", 0, cmd_quantum },
    { "tick", 1, cmd_tick },
    { "finish", 0, cmd_finish },
    { "flush", 0, cmd_flush },
    { "status", 0, cmd_status },
};

#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

/* The command a word names (an exact name or an unambiguous prefix of at least
 * two letters); NONE if there is none, -2 if the prefix is ambiguous. */
static int lookup(const char *word)
{
    size_t n = strlen(word), k;
    int i, found = NONE;
    if (n < 2)
        return NONE;
    for (i = 0; i < NCOMMANDS; i++) {
        const char *name = commands[i].name;
        for (k = 0; k < n && name[k] != '\0'; k++)
            if (tolower((unsigned char)word[k]) != name[k])
                break;
        if (k < n)
            continue;
        if (name[k] == '\0')
            return i;
        found = found == NONE ? i : -2;
    }
    return found;
}

static void out_flush(struct outline *o)
{
    if (o->len == 0)
        return;
    o->buf[o->len] = '\0';
    printf("%s%s\n", o->lines > 0 ? "  " : "", o->buf);
    o->lines++;
    o->len = 0;
}

/* Adds a word to the output line, starting a new line when it would not fit. */
static void out_word(struct outline *o, const char *w)
{
    int n = (int)strlen(w);
    if (o->len > 0 && o->len + 1 + n > LINEWIDTH)
        out_flush(o);
    if (o->len > 0)
        o->buf[o->len++] = ' ';
    memcpy(o->buf + o->len, w, (size_t)n);
    o->len += n;
}

static void report(const struct sched *s)
{
    struct outline o = { "", 0, 0 };
    int i, prio, waiting = 0;
    out_word(&o, "finished:");
    for (i = 0; i < s->nfinished; i++)
        out_word(&o, s->procs[s->order[i]].name);
    if (s->nfinished == 0)
        out_word(&o, "none");
    out_flush(&o);
    for (prio = 1; prio <= NPRIO; prio++)
        waiting += s->ready[prio].len;
    if (s->current != NONE)
        waiting++;
    printf("left: %d ready, %d blocked\n", waiting, s->blocked.len);
    if (s->verbose && s->nfinished > 0) {
        long t = (s->turnaround * 100 + s->nfinished / 2) / s->nfinished;
        printf("clock %d, mean turnaround %ld.%02ld\n", s->clock, t / 100, t % 100);
    }
}

static int usage(void)
{
    fprintf(stderr, "usage: %s [-v] [-q TICKS] [-a WAIT] [COMMAND...]\n", progname);
    return 1;
}

int main(int argc, char **argv)
{
    static struct sched s;
    int i = 1, prio, c, rc;
    s.current = NONE;
    s.quantum = DEFQUANTUM;
    for (prio = 0; prio <= NPRIO; prio++)
        s.ready[prio].head = s.ready[prio].tail = NONE;
    s.blocked.head = s.blocked.tail = NONE;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
        switch (strlen(argv[i]) == 2 ? argv[i][1] : '?') {
        case 'v':
            s.verbose = 1;
            break;
        case 'q':
            if (i + 1 >= argc || !parse_int(argv[i + 1], 1, 20, &s.quantum))
                return fail(1, "bad time slice after", argv[i]);
            i++;
            break;
        case 'a':
            if (i + 1 >= argc || !parse_int(argv[i + 1], 1, MAXTICK, &s.age_limit))
                return fail(1, "bad aging limit after", argv[i]);
            i++;
            break;
        default:
            return usage();
        }
    }
    while (i < argc) {
        c = lookup(argv[i]);
        if (c == NONE)
            return fail(2, "unknown command", argv[i]);
        if (c == -2)
            return fail(2, "ambiguous command", argv[i]);
        if (i + commands[c].nargs >= argc)
            return fail(2, "missing operand to", argv[i]);
        rc = commands[c].run(&s, argv + i + 1);
        if (rc != 0)
            return rc;
        i += 1 + commands[c].nargs;
    }
    report(&s);
    return 0;
}
