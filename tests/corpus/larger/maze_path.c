// Larger program: a grid path finder: reads and validates a maze from stdin, runs BFS, depth-limited recursive DFS, Dijkstra and A* (own binary min-heap) through a function-pointer table, draws the path, flood-fills reachability and labels connected components.
// RUN: stdin=maze_path.1.in
// RUN: args=-d stdin=maze_path.1.in
// RUN: args=-d -l 6 stdin=maze_path.1.in
// RUN: args=-j -a -b stdin=maze_path.2.in
// RUN: args=-all stdin=maze_path.2.in
// RUN: args=-all stdin=maze_path.3.in
// RUN: args=-a -q -d stdin=maze_path.3.in
// RUN: args=-c -b stdin=maze_path.4.in
// RUN: args=-all -q -c stdin=maze_path.5.in
// RUN: args=-c stdin=maze_path.4.in
// RUN: args=-all -l 3 stdin=maze_path.4.in
// RUN: args=-q -d -b -l 10 stdin=maze_path.2.in
// RUN: stdin=maze_path.6.in
// RUN: stdin=maze_path.7.in
// RUN: args=-q stdin=maze_path.8.in
// RUN: args=-j stdin="S9G\n.1.\n"
// RUN: args=-a -all stdin="\n; tiny\nSa#b\n.##.\nb#aG\n"
// RUN: stdin="..G\n...\n"
// RUN: args=-q stdin="S.S\n..G\n"
// RUN: stdin="S..\n...\n"
// RUN: args=-b stdin="S.G\nG..\n"
// RUN: stdin="S.x\n..G\n"
// RUN: stdin="Sa.\n.#G\n"
// RUN: stdin="Sa.a\n.a#G\n"
// RUN: stdin=""
// RUN: args=-z stdin="S.G\n"
// RUN: args=-l stdin="S.G\n"
// RUN: args=-c -q stdin="S#G\n.#.\n"
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 20
#define MAX_COLS 30
#define LINE_CAP 64
#define NTELE 5
#define INF 0x3fffffff
#define DEFAULT_DFS_LIMIT 100
#define IDX(g, r, c) ((r) * (g)->cols + (c))
#define ROW(g, i) ((i) / (g)->cols)
#define COL(g, i) ((i) % (g)->cols)
#define IS_TELE(ch) ((ch) >= 'a' && (ch) < 'a' + NTELE)
#define IS_WEIGHT(ch) ((ch) >= '1' && (ch) <= '9')
#define ABS(x) ((x) < 0 ? -(x) : (x))
#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Exit codes: 0 path found, 1 no path, 2 usage, 3.. input errors. */
enum status {
    ST_OK, ST_NO_PATH, ST_USAGE, ST_NO_START, ST_TWO_STARTS, ST_RAGGED,
    ST_TOO_LARGE, ST_NO_GOAL, ST_BAD_CHAR, ST_BAD_TELEPORT, ST_EMPTY, ST_TWO_GOALS
};

enum algo_id { ALG_BFS, ALG_DFS, ALG_DIJKSTRA, ALG_ASTAR, ALG_COUNT };

enum verbosity { V_SILENT, V_QUIET, V_FULL };

struct grid {
    int rows, cols, ncells;
    char *cells;          /* rows * cols, row-major */
    int *cost;            /* cost of entering each cell */
    int *partner;         /* teleport partner or -1 */
    int start, goal;
    int open, weighted, pairs;
    int tele_cells[2 * NTELE], ntele_cells;
    int tele_goal;        /* least Manhattan distance from a teleport cell to the goal */
};

struct diag {
    int line, col, got, want;
    char ch;
};

struct search {
    const struct grid *g;
    int *pred, *dist;
    unsigned char *seen;
    int expanded, max_frontier, found, limit, limited;
};

typedef void (*search_fn)(struct search *s);

struct algorithm {
    const char *flag, *name;
    search_fn run;
    int minimises_cost;
};

struct outcome {
    int found, moves, cost, expanded, frontier, limited;
};

struct heap_node {
    int key, tie, cell;
};

struct heap {
    struct heap_node *a;
    int n, cap;
};

struct component {
    int id, size, first;
};

static char raw[MAX_ROWS][LINE_CAP];

static int read_line(char *buf, int cap, int *len) {
    int c, n = 0, any = 0;
    while ((c = getchar()) != EOF) {
        any = 1;
        if (c == '\n') break;
        if (c == '\r') continue;
        if (n < cap - 1) buf[n] = (char)c;
        n++;
    }
    buf[n < cap - 1 ? n : cap - 1] = '\0';
    *len = n;
    return any;
}

static int manhattan(const struct grid *g, int a, int b) {
    int dr = ROW(g, a) - ROW(g, b);
    int dc = COL(g, a) - COL(g, b);
    return ABS(dr) + ABS(dc);
}

static enum status classify_cells(struct grid *g, struct diag *d) {
    int first[NTELE], count[NTELE];
    int i, k;
    memset(first, -1, sizeof first);
    memset(count, 0, sizeof count);
    for (i = 0; i < g->ncells; i++) {
        char ch = g->cells[i];
        d->line = ROW(g, i) + 1;
        d->col = COL(g, i) + 1;
        d->ch = ch;
        g->partner[i] = -1;
        g->cost[i] = 1;
        switch (ch) {
        case '#':
            g->cost[i] = 0;
            continue;
        case 'S':
            if (g->start >= 0) return ST_TWO_STARTS;
            g->start = i;
            break;
        case 'G':
            if (g->goal >= 0) return ST_TWO_GOALS;
            g->goal = i;
            break;
        case '.':
            break;
        default:
            if (IS_WEIGHT(ch)) {
                g->cost[i] = ch - '0';
                g->weighted++;
            } else if (IS_TELE(ch)) {
                k = ch - 'a';
                if (count[k] == 0) {
                    first[k] = i;
                } else if (count[k] == 1) {
                    g->partner[i] = first[k];
                    g->partner[first[k]] = i;
                }
                count[k]++;
                if (g->ntele_cells < COUNT_OF(g->tele_cells))
                    g->tele_cells[g->ntele_cells++] = i;
            } else {
                return ST_BAD_CHAR;
            }
            break;
        }
        g->open++;
    }
    if (g->start < 0) return ST_NO_START;
    if (g->goal < 0) return ST_NO_GOAL;
    for (k = 0; k < NTELE; k++) {
        if (count[k] != 0 && count[k] != 2) {
            d->ch = (char)('a' + k);
            d->got = count[k];
            d->line = ROW(g, first[k]) + 1;
            d->col = COL(g, first[k]) + 1;
            return ST_BAD_TELEPORT;
        }
        if (count[k] == 2) g->pairs++;
    }
    g->tele_goal = INF;
    for (k = 0; k < g->ntele_cells; k++) {
        int dist = manhattan(g, g->tele_cells[k], g->goal);
        if (dist < g->tele_goal) g->tele_goal = dist;
    }
    return ST_OK;
}

static enum status load_grid(struct grid *g, struct diag *d) {
    char line[LINE_CAP];
    int len, rows = 0, cols = -1, lineno = 0, r;
    char *dst;
    memset(g, 0, sizeof *g);
    memset(d, 0, sizeof *d);
    g->start = g->goal = -1;
    while (read_line(line, LINE_CAP, &len)) {
        lineno++;
        if (len == 0 && rows > 0) break;
        if (len == 0 || line[0] == ';') continue;
        d->line = lineno;
        d->got = len;
        if (len > MAX_COLS) {
            d->want = MAX_COLS;
            return ST_TOO_LARGE;
        }
        if (rows == MAX_ROWS) {
            d->got = rows + 1;
            d->want = MAX_ROWS;
            return ST_TOO_LARGE;
        }
        if (cols < 0) {
            cols = len;
        } else if (len != cols) {
            d->want = cols;
            return ST_RAGGED;
        }
        memcpy(raw[rows], line, (size_t)len + 1);
        rows++;
    }
    if (rows == 0) return ST_EMPTY;
    g->rows = rows;
    g->cols = cols;
    g->ncells = rows * cols;
    g->cells = malloc((size_t)g->ncells);
    g->cost = malloc((size_t)g->ncells * sizeof *g->cost);
    g->partner = malloc((size_t)g->ncells * sizeof *g->partner);
    for (dst = g->cells, r = 0; r < rows; r++) {
        const char *src = raw[r], *end = raw[r] + cols;
        while (src < end) *dst++ = *src++;
    }
    return classify_cells(g, d);
}

static void free_grid(struct grid *g) {
    free(g->cells);
    free(g->cost);
    free(g->partner);
}

static void report_error(enum status st, const struct diag *d) {
    printf("error: ");
    switch (st) {
    case ST_NO_START: printf("no start cell 'S'\n"); break;
    case ST_TWO_STARTS:
    case ST_TWO_GOALS:
        printf("second %s at row %d column %d\n", st == ST_TWO_GOALS ? "goal" : "start",
               d->line, d->col);
        break;
    case ST_NO_GOAL: printf("no goal cell 'G'\n"); break;
    case ST_RAGGED:
        printf("ragged row on line %d: %d cells, expected %d\n", d->line, d->got, d->want);
        break;
    case ST_TOO_LARGE:
        if (d->want == MAX_ROWS) printf("too many rows at line %d: more than %d\n", d->line, d->want);
        else printf("line %d too wide: %d cells, at most %d\n", d->line, d->got, d->want);
        break;
    case ST_BAD_CHAR:
        printf("unexpected character '%c' at row %d column %d\n", d->ch, d->line, d->col);
        break;
    case ST_BAD_TELEPORT:
        printf("teleport '%c' appears %d time%s (first at row %d column %d), needs a pair\n",
               d->ch, d->got, d->got == 1 ? "" : "s", d->line, d->col);
        break;
    case ST_EMPTY: printf("empty grid\n"); break;
    default: printf("status %d\n", (int)st); break;
    }
}

static int neighbours(const struct grid *g, int cell, int out[5]) {
    static const int dr[4] = { -1, 0, 1, 0 };
    static const int dc[4] = { 0, 1, 0, -1 };
    int n = 0, k;
    int r = ROW(g, cell), c = COL(g, cell);
    for (k = 0; k < 4; k++) {
        int nr = r + dr[k], nc = c + dc[k], ni;
        if (nr < 0 || nr >= g->rows || nc < 0 || nc >= g->cols) continue;
        ni = IDX(g, nr, nc);
        if (g->cells[ni] == '#') continue;
        out[n++] = ni;
    }
    if (g->partner[cell] >= 0) out[n++] = g->partner[cell];
    return n;
}

static int heuristic(const struct grid *g, int cell) {
    int h = manhattan(g, cell, g->goal);
    if (g->ntele_cells > 0) {
        const int *t = g->tele_cells;
        const int *end = t + g->ntele_cells;
        int best = INF;
        for (; t < end; t++) {
            int d = manhattan(g, cell, *t);
            if (d < best) best = d;
        }
        if (best + 1 + g->tele_goal < h) h = best + 1 + g->tele_goal;
    }
    return h;
}

static int node_less(const struct heap_node *x, const struct heap_node *y) {
    if (x->key != y->key) return x->key < y->key;
    if (x->tie != y->tie) return x->tie < y->tie;
    return x->cell < y->cell;
}

static void node_swap(struct heap_node *x, struct heap_node *y) {
    struct heap_node t = *x;
    *x = *y;
    *y = t;
}

static void sift_up(struct heap *h, int i) {
    struct heap_node *base = h->a;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!node_less(base + i, base + parent)) break;
        node_swap(base + i, base + parent);
        i = parent;
    }
}

static void sift_down(struct heap *h, int i) {
    struct heap_node *base = h->a;
    for (;;) {
        int left = 2 * i + 1, right = left + 1, best = i;
        if (left < h->n && node_less(base + left, base + best)) best = left;
        if (right < h->n && node_less(base + right, base + best)) best = right;
        if (best == i) break;
        node_swap(base + i, base + best);
        i = best;
    }
}

static void heap_push(struct heap *h, struct heap_node v) {
    if (h->n == h->cap) {
        h->cap *= 2;
        h->a = realloc(h->a, (size_t)h->cap * sizeof *h->a);
    }
    h->a[h->n] = v;
    sift_up(h, h->n);
    h->n++;
}

static struct heap_node heap_pop(struct heap *h) {
    struct heap_node top = h->a[0];
    h->n--;
    if (h->n > 0) {
        h->a[0] = h->a[h->n];
        sift_down(h, 0);
    }
    return top;
}

static void search_init(struct search *s, const struct grid *g, int limit) {
    int i;
    memset(s, 0, sizeof *s);
    s->g = g;
    s->limit = limit;
    s->pred = malloc((size_t)g->ncells * sizeof *s->pred);
    s->dist = malloc((size_t)g->ncells * sizeof *s->dist);
    s->seen = calloc((size_t)g->ncells, 1);
    for (i = 0; i < g->ncells; i++) {
        s->pred[i] = -1;
        s->dist[i] = INF;
    }
    s->dist[g->start] = 0;
}

static void search_free(struct search *s) {
    free(s->pred);
    free(s->dist);
    free(s->seen);
}

static void run_bfs(struct search *s) {
    const struct grid *g = s->g;
    int *queue = malloc((size_t)g->ncells * sizeof *queue);
    int head = 0, tail = 0;
    queue[tail++] = g->start;
    s->seen[g->start] = 1;
    while (head < tail) {
        int cell = queue[head++];
        int nb[5], n, k;
        s->expanded++;
        if (cell == g->goal) {
            s->found = 1;
            break;
        }
        n = neighbours(g, cell, nb);
        for (k = 0; k < n; k++) {
            int m = nb[k];
            if (s->seen[m]) continue;
            s->seen[m] = 1;
            s->pred[m] = cell;
            s->dist[m] = s->dist[cell] + g->cost[m];
            queue[tail++] = m;
        }
        if (tail - head > s->max_frontier) s->max_frontier = tail - head;
    }
    free(queue);
}

static int dfs_visit(struct search *s, int cell, int depth) {
    int nb[5], n, k;
    s->expanded++;
    if (depth > s->max_frontier) s->max_frontier = depth;
    if (cell == s->g->goal) return 1;
    if (depth >= s->limit) {
        s->limited = 1;
        return 0;
    }
    n = neighbours(s->g, cell, nb);
    for (k = 0; k < n; k++) {
        int m = nb[k];
        if (s->seen[m]) continue;
        s->seen[m] = 1;
        s->pred[m] = cell;
        s->dist[m] = s->dist[cell] + s->g->cost[m];
        if (dfs_visit(s, m, depth + 1)) return 1;
    }
    return 0;
}

static void run_dfs(struct search *s) {
    s->seen[s->g->start] = 1;
    s->found = dfs_visit(s, s->g->start, 0);
}

static void best_first(struct search *s, int use_h) {
    const struct grid *g = s->g;
    struct heap h;
    struct heap_node node;
    h.n = 0;
    h.cap = 8;
    h.a = malloc((size_t)h.cap * sizeof *h.a);
    node.tie = use_h ? heuristic(g, g->start) : 0;
    node.key = node.tie;
    node.cell = g->start;
    heap_push(&h, node);
    while (h.n > 0) {
        struct heap_node top = heap_pop(&h);
        int cell = top.cell, nb[5], n, k;
        if (s->seen[cell]) continue;
        s->seen[cell] = 1;
        s->expanded++;
        if (cell == g->goal) {
            s->found = 1;
            break;
        }
        n = neighbours(g, cell, nb);
        for (k = 0; k < n; k++) {
            int m = nb[k], nd;
            if (s->seen[m]) continue;
            nd = s->dist[cell] + g->cost[m];
            if (nd >= s->dist[m]) continue;
            s->dist[m] = nd;
            s->pred[m] = cell;
            node.tie = use_h ? heuristic(g, m) : 0;
            node.key = nd + node.tie;
            node.cell = m;
            heap_push(&h, node);
        }
        if (h.n > s->max_frontier) s->max_frontier = h.n;
    }
    free(h.a);
}

static void run_dijkstra(struct search *s) { best_first(s, 0); }

static void run_astar(struct search *s) { best_first(s, 1); }

static const struct algorithm algorithms[ALG_COUNT] = {
    [ALG_BFS] = { "-b", "bfs", run_bfs, 0 },
    [ALG_DFS] = { "-d", "dfs", run_dfs, 0 },
    [ALG_DIJKSTRA] = { "-j", "dijkstra", run_dijkstra, 1 },
    [ALG_ASTAR] = { "-a", "astar", run_astar, 1 },
};

static int build_path(const struct search *s, int *path) {
    int n = 0, c;
    int *lo, *hi;
    for (c = s->g->goal; c >= 0; c = s->pred[c]) path[n++] = c;
    for (lo = path, hi = path + n - 1; lo < hi; lo++, hi--) {
        int t = *lo;
        *lo = *hi;
        *hi = t;
    }
    return n;
}

static char move_letter(const struct grid *g, int from, int to) {
    int dr = ROW(g, to) - ROW(g, from);
    int dc = COL(g, to) - COL(g, from);
    if (dc == 0 && dr == -1) return 'U';
    if (dr == 0 && dc == 1) return 'R';
    if (dc == 0 && dr == 1) return 'D';
    if (dr == 0 && dc == -1) return 'L';
    return 'T';
}

static void print_moves(const struct grid *g, const int *path, int n) {
    int i = 1;
    printf("moves:");
    if (n < 2) printf(" none");
    while (i < n) {
        char m = move_letter(g, path[i - 1], path[i]);
        int run = 1;
        while (i + run < n && move_letter(g, path[i + run - 1], path[i + run]) == m) run++;
        if (run == 1) printf(" %c", m);
        else printf(" %c%d", m, run);
        i += run;
    }
    putchar('\n');
}

static void print_canvas(const struct grid *g, const char *canvas) {
    int r;
    for (r = 0; r < g->rows; r++) {
        const char *p = canvas + (size_t)r * (size_t)g->cols;
        const char *end = p + g->cols;
        putchar(' ');
        putchar(' ');
        while (p < end) putchar(*p++);
        putchar('\n');
    }
}

static void draw_path(const struct grid *g, const int *path, int n) {
    char *canvas = malloc((size_t)g->ncells);
    int i;
    memcpy(canvas, g->cells, (size_t)g->ncells);
    for (i = 1; i < n - 1; i++) {
        char *p = canvas + path[i];
        if (*p == '.') *p = '*';
        else if (IS_WEIGHT(*p)) *p = '+';
        else if (IS_TELE(*p)) *p = (char)(*p - 'a' + 'A');
    }
    print_canvas(g, canvas);
    free(canvas);
}

static int path_cost(const struct grid *g, const int *path, int n) {
    int i, total = 0;
    for (i = 1; i < n; i++) total += g->cost[path[i]];
    return total;
}

static void run_algorithm(const struct algorithm *alg, const struct grid *g, int limit,
                          enum verbosity v, struct outcome *out) {
    struct search s;
    int *path = NULL, n = 0;
    search_init(&s, g, limit);
    alg->run(&s);
    memset(out, 0, sizeof *out);
    out->found = s.found;
    out->expanded = s.expanded;
    out->frontier = s.max_frontier;
    out->limited = s.limited;
    if (s.found) {
        path = malloc((size_t)g->ncells * sizeof *path);
        n = build_path(&s, path);
        out->moves = n - 1;
        out->cost = path_cost(g, path, n);
        assert(out->cost == s.dist[g->goal]);
    }
    switch (v) {
    case V_SILENT: break;
    case V_QUIET:
        if (s.found)
            printf("%s: moves=%d cost=%d expanded=%d\n", alg->name, out->moves, out->cost,
                   out->expanded);
        else
            printf("%s: no path expanded=%d%s\n", alg->name, out->expanded,
                   s.limited ? " (depth limit)" : "");
        break;
    case V_FULL:
        printf("== %s ==\n", alg->name);
        if (s.found) {
            printf("path: %d moves, cost %d%s\n", out->moves, out->cost,
                   alg->minimises_cost ? " (least cost)" : "");
            print_moves(g, path, n);
        } else if (s.limited) {
            printf("no path within depth limit %d\n", limit);
        } else {
            printf("no path\n");
        }
        printf("expanded %d cells, peak %s %d\n", out->expanded,
               alg->run == run_dfs ? "depth" : "frontier", out->frontier);
        if (s.found) draw_path(g, path, n);
        break;
    }
    free(path);
    search_free(&s);
}

static int flood_fill(const struct grid *g, int from, int *label, int id, int *stack) {
    int top = 0, count = 0;
    stack[top++] = from;
    label[from] = id;
    while (top > 0) {
        int cell = stack[--top], nb[5], n, k;
        count++;
        n = neighbours(g, cell, nb);
        for (k = 0; k < n; k++) {
            if (label[nb[k]] < 0) {
                label[nb[k]] = id;
                stack[top++] = nb[k];
            }
        }
    }
    return count;
}

static int reachable_cells(const struct grid *g, int *goal_reached) {
    int *label = malloc((size_t)g->ncells * sizeof *label);
    int *stack = malloc((size_t)g->ncells * sizeof *stack);
    int i, count;
    for (i = 0; i < g->ncells; i++) label[i] = -1;
    count = flood_fill(g, g->start, label, 0, stack);
    *goal_reached = label[g->goal] == 0;
    free(label);
    free(stack);
    return count;
}

static int cmp_component(const void *a, const void *b) {
    const struct component *x = a, *y = b;
    if (x->size != y->size) return x->size < y->size ? 1 : -1;
    return (x->id > y->id) - (x->id < y->id);
}

static char component_symbol(int id) {
    if (id < 10) return (char)('0' + id);
    if (id < 36) return (char)('A' + id - 10);
    return '?';
}

static void show_components(const struct grid *g, int quiet) {
    int *label = malloc((size_t)g->ncells * sizeof *label);
    int *stack = malloc((size_t)g->ncells * sizeof *stack);
    struct component *comps = malloc((size_t)g->ncells * sizeof *comps);
    int i, n = 0, singles = 0;
    for (i = 0; i < g->ncells; i++) label[i] = -1;
    for (i = 0; i < g->ncells; i++) {
        if (g->cells[i] == '#' || label[i] >= 0) continue;
        comps[n].id = n;
        comps[n].first = i;
        comps[n].size = flood_fill(g, i, label, n, stack);
        if (comps[n].size == 1) singles++;
        n++;
    }
    printf("components: %d (%d isolated cell%s)\n", n, singles, singles == 1 ? "" : "s");
    printf("start in %c, goal in %c: %s\n", component_symbol(label[g->start]),
           component_symbol(label[g->goal]),
           label[g->start] == label[g->goal] ? "connected" : "separated");
    if (!quiet) {
        char *canvas = malloc((size_t)g->ncells);
        for (i = 0; i < g->ncells; i++)
            canvas[i] = g->cells[i] == '#' ? '#' : component_symbol(label[i]);
        print_canvas(g, canvas);
        free(canvas);
    }
    qsort(comps, (size_t)n, sizeof *comps, cmp_component);
    for (i = 0; i < n && i < 4; i++)
        printf("  %c: %d cell%s from row %d column %d\n", component_symbol(comps[i].id),
               comps[i].size, comps[i].size == 1 ? "" : "s", ROW(g, comps[i].first) + 1,
               COL(g, comps[i].first) + 1);
    if (n > 4) printf("  ... %d more\n", n - 4);
    free(comps);
    free(label);
    free(stack);
}

static int compare_all(const struct grid *g, int limit, int quiet) {
    struct outcome res[ALG_COUNT];
    int i, fewest = -1, cheapest = -1, any = 0;
    for (i = 0; i < ALG_COUNT; i++) run_algorithm(&algorithms[i], g, limit, V_SILENT, &res[i]);
    printf("%-9s %-5s %5s %5s %8s %6s\n", "algorithm", "found", "moves", "cost", "expanded",
           "peak");
    for (i = 0; i < ALG_COUNT; i++) {
        const struct outcome *o = &res[i];
        if (o->found)
            printf("%-9s %-5s %5d %5d %8d %6d\n", algorithms[i].name, "yes", o->moves, o->cost,
                   o->expanded, o->frontier);
        else
            printf("%-9s %-5s %5s %5s %8d %6d\n", algorithms[i].name,
                   o->limited ? "limit" : "no", "-", "-", o->expanded, o->frontier);
        if (!o->found) continue;
        any = 1;
        if (fewest < 0 || o->moves < res[fewest].moves) fewest = i;
        if (cheapest < 0 || o->cost < res[cheapest].cost) cheapest = i;
    }
    if (!any) {
        printf("no algorithm reached the goal\n");
        return 0;
    }
    printf("fewest moves: %s (%d)\n", algorithms[fewest].name, res[fewest].moves);
    printf("cheapest: %s (%d)\n", algorithms[cheapest].name, res[cheapest].cost);
    if (res[ALG_DIJKSTRA].found && res[ALG_ASTAR].found) {
        int same = res[ALG_ASTAR].cost == res[ALG_DIJKSTRA].cost;
        printf("astar %s dijkstra on cost", same ? "agrees with" : "DISAGREES with");
        printf(", expanding %d of its %d cells\n", res[ALG_ASTAR].expanded,
               res[ALG_DIJKSTRA].expanded);
    }
    if (res[ALG_BFS].found && res[ALG_DFS].found) {
        int extra = res[ALG_DFS].moves - res[ALG_BFS].moves;
        if (extra == 0) printf("dfs found a shortest path\n");
        else printf("dfs path is %d move%s longer than bfs\n", extra, extra == 1 ? "" : "s");
    }
    if (res[ALG_BFS].found && res[ALG_DIJKSTRA].found &&
        res[ALG_BFS].cost > res[ALG_DIJKSTRA].cost)
        printf("weights matter: the shortest path costs %d more than the cheapest\n",
               res[ALG_BFS].cost - res[ALG_DIJKSTRA].cost);
    if (!quiet) run_algorithm(&algorithms[cheapest], g, limit, V_FULL, &res[cheapest]);
    return 1;
}

static int usage(void) {
    printf("usage: maze_path [-b] [-d] [-j] [-a] [-all] [-c] [-q] [-l N] < grid\n");
    return ST_USAGE;
}

int main(int argc, char **argv) {
    int selected[ALG_COUNT] = { 0 };
    int all = 0, comps = 0, quiet = 0, limit = DEFAULT_DFS_LIMIT, nselected = 0;
    int i, k, found_any = 0, ran = 0, goal_reached, reach;
    struct grid g;
    struct diag d;
    enum status st;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int matched = 0;
        for (k = 0; k < ALG_COUNT; k++) {
            if (strcmp(a, algorithms[k].flag) == 0) {
                selected[k] = 1;
                matched = 1;
            }
        }
        if (matched) continue;
        if (strcmp(a, "-all") == 0) {
            all = 1;
            continue;
        }
        if (a[0] != '-' || a[1] == '\0' || a[2] != '\0') return usage();
        switch (a[1]) {
        case 'c': comps = 1; break;
        case 'q': quiet = 1; break;
        case 'l':
            if (i + 1 >= argc) return usage();
            limit = atoi(argv[++i]);
            if (limit < 0) return usage();
            break;
        default:
            return usage();
        }
    }
    for (k = 0; k < ALG_COUNT; k++) nselected += selected[k];
    if (nselected == 0 && !all && !comps) selected[ALG_BFS] = 1;

    st = load_grid(&g, &d);
    if (st != ST_OK) {
        report_error(st, &d);
        free_grid(&g);
        return st;
    }
    printf("grid %dx%d: %d open, %d weighted, %d teleport pair%s\n", g.rows, g.cols, g.open,
           g.weighted, g.pairs, g.pairs == 1 ? "" : "s");
    printf("start (%d,%d) goal (%d,%d), distance %d\n", ROW(&g, g.start) + 1,
           COL(&g, g.start) + 1, ROW(&g, g.goal) + 1, COL(&g, g.goal) + 1,
           manhattan(&g, g.start, g.goal));
    reach = reachable_cells(&g, &goal_reached);
    printf("reachable: %d of %d open cells, goal %s\n", reach, g.open,
           goal_reached ? "reachable" : "unreachable");
    if (comps) show_components(&g, quiet);
    if (all) {
        ran = 1;
        found_any = compare_all(&g, limit, quiet);
    } else {
        for (k = 0; k < ALG_COUNT; k++) {
            struct outcome o;
            if (!selected[k]) continue;
            ran = 1;
            run_algorithm(&algorithms[k], &g, limit, quiet ? V_QUIET : V_FULL, &o);
            if (o.found) found_any = 1;
        }
    }
    free_grid(&g);
    if (!ran) found_any = goal_reached;
    return found_any ? ST_OK : ST_NO_PATH;
}
