// Larger program: a small expression language: tokenizer, recursive-descent parser to a malloc'd tagged-union AST, bytecode compiler, stack VM (switch over opcodes) with built-ins called through function pointers, flags for disassembly, tracing, statistics and variables, one exit code per error kind.
// RUN: stdin=calc_vm.1.in
// RUN: args=-s -v stdin=calc_vm.1.in
// RUN: args=-d -t 40 stdin=calc_vm.2.in
// RUN: args=-dst12 stdin=calc_vm.2.in
// RUN: args=-d -v stdin=calc_vm.3.in
// RUN: args=-s stdin=calc_vm.4.in
// RUN: args=-v stdin=calc_vm.5.in
// RUN: args=-v -s -d stdin=calc_vm.6.in
// RUN: args=-t 6 stdin="x = 10;\ny = 0;\nprint x / y;\n"
// RUN: args=-d stdin="# remainder by zero\nprint 7 % 0;\n"
// RUN: stdin="a = 1;\nif (a > 0) {\n  print a + b;\n}\n"
// RUN: args=-l 50 -s stdin="i = 0;\nwhile (1) { i = i + 1; }\nprint i;\n"
// RUN: stdin="print 1;\nprint (1 + 2;\n"
// RUN: stdin="x = 3 $ 4;\n"
// RUN: stdin="x = 1;\n\x01\n"
// RUN: stdin="print 1;\n\nprint foo(1);\n"
// RUN: stdin="print min(1);\n"
// RUN: stdin="print clamp(1, 2, 3, 4);\n"
// RUN: stdin="if (1) {\n  print 1;\n"
// RUN: stdin="print 99999999999;\n"
// RUN: stdin="averyveryverylongname = 1;\n"
// RUN: stdin="print 1, 2, 3, 4, 5, 6, 7, 8, 9;\n"
// RUN: stdin="while 1 { }\n"
// RUN: stdin="print 1 + ;\n"
// RUN: stdin="x = 5 y = 6;\n"
// RUN: stdin="print sqrt(16), sqrt(17);\nprint sqrt(-4);\n"
// RUN: stdin="print pow(3, 4);\nprint pow(2, -1);\n"
// RUN: args=-v stdin="a = 2;\nb = clamp(5, 10, 1);\n"
// RUN: args=-x
// RUN: args=-t
// RUN: args=-l zero
// RUN: args=program.txt
// RUN: args=-s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#define MAX_VARS 64
#define MAX_NAME 15
#define MAX_ARGS 3
#define MAX_PRINT 8
#define STACK_MAX 16
#define DEFAULT_STEP_LIMIT 100000L
#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define UADD(a, b) ((int)((unsigned)(a) + (unsigned)(b)))
#define USUB(a, b) ((int)((unsigned)(a) - (unsigned)(b)))
#define UMUL(a, b) ((int)((unsigned)(a) * (unsigned)(b)))
/* The binary operator tokens T_PLUS..T_GE and opcodes OP_ADD..OP_GE are in the same order. */
#define BINOP_OPCODE(tok) ((enum opcode)(OP_ADD + ((tok) - T_PLUS)))

/* ---------- errors: each kind is also the exit code ---------- */
enum rc { RC_OK, RC_USAGE, RC_SYNTAX, RC_DIVZERO, RC_UNKNOWN_VAR, RC_STACK, RC_TOO_MANY_VARS, RC_DOMAIN, RC_STEPS };

static const char *const rc_names[] = {
    "ok", "usage error", "syntax error", "division by zero", "unknown variable",
    "stack overflow", "too many variables", "domain error", "step limit exceeded"
};

static void report(int line, enum rc rc, const char *detail) {
    printf("line %d: %s%s%s\n", line, rc_names[rc], detail[0] != '\0' ? ": " : "", detail);
}

/* ---------- tokens ---------- */
enum tok_kind {
    T_EOF, T_NUM, T_IDENT, T_PRINT, T_IF, T_ELSE, T_WHILE,
    T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE, T_SEMI, T_COMMA, T_ASSIGN,
    T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT,
    T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_AND, T_OR, T_NOT
};

/* Keywords are T_PRINT..T_WHILE, operators T_LPAREN..T_NOT: the lexer matches these texts. */
static const char *const tok_names[] = {
    "end of input", "number", "identifier", "print", "if", "else", "while",
    "(", ")", "{", "}", ";", ",", "=", "+", "-", "*", "/", "%",
    "==", "!=", "<", "<=", ">", ">=", "&&", "||", "!"
};

struct token { enum tok_kind kind; int line, value; char text[MAX_NAME + 1]; };
struct token_list { struct token *items; int count, cap; };

static struct token *push_token(struct token_list *tl, enum tok_kind kind, int line) {
    struct token *t;
    if (tl->count == tl->cap) {
        tl->cap = tl->cap ? tl->cap * 2 : 32;
        tl->items = realloc(tl->items, (size_t)tl->cap * sizeof *tl->items);
    }
    t = &tl->items[tl->count++];
    *t = (struct token){kind, line, 0, ""};
    return t;
}

static enum rc tokenize(const char *s, struct token_list *tl) {
    int line = 1, k, best;
    size_t len, best_len;
    char msg[64];
    while (*s != '\0') {
        unsigned char c = (unsigned char)*s;
        if (isspace(c)) {
            line += c == '\n', s++;
        } else if (c == '#') {   /* comment to the end of the line */
            while (*s != '\0' && *s != '\n') s++;
        } else if (isdigit(c)) {
            long long v = 0;
            while (isdigit((unsigned char)*s)) {
                v = v * 10 + (*s++ - '0');
                if (v > 2147483647LL) return report(line, RC_SYNTAX, "number too large"), RC_SYNTAX;
            }
            push_token(tl, T_NUM, line)->value = (int)v;
        } else if (isalpha(c) || c == '_') {
            const char *start = s;
            struct token *t;
            while (isalnum((unsigned char)*s) || *s == '_') s++;
            len = (size_t)(s - start);
            if (len > MAX_NAME) {
                snprintf(msg, sizeof msg, "identifier '%.*s...' is too long", 8, start);
                return report(line, RC_SYNTAX, msg), RC_SYNTAX;
            }
            t = push_token(tl, T_IDENT, line);
            memcpy(t->text, start, len);
            for (k = T_PRINT; k <= T_WHILE; k++)
                if (strcmp(t->text, tok_names[k]) == 0) t->kind = (enum tok_kind)k;
        } else {
            for (best = -1, best_len = 0, k = T_LPAREN; k <= T_NOT; k++) {   /* longest match */
                len = strlen(tok_names[k]);
                if (len > best_len && strncmp(s, tok_names[k], len) == 0) best = k, best_len = len;
            }
            if (best < 0) {
                if (isprint(c)) snprintf(msg, sizeof msg, "unexpected character '%c'", c);
                else snprintf(msg, sizeof msg, "unexpected byte 0x%02x", c);
                return report(line, RC_SYNTAX, msg), RC_SYNTAX;
            }
            push_token(tl, (enum tok_kind)best, line);
            s += best_len;
        }
    }
    push_token(tl, T_EOF, line);
    return RC_OK;
}

/* ---------- built-in functions, called through a table ---------- */
typedef enum rc (*builtin_fn)(const int *args, int *result);

static unsigned uabs(int v) { return v < 0 ? 0u - (unsigned)v : (unsigned)v; }
static enum rc bi_abs(const int *a, int *r) { *r = (int)uabs(a[0]); return RC_OK; }
static enum rc bi_min(const int *a, int *r) { *r = a[0] < a[1] ? a[0] : a[1]; return RC_OK; }
static enum rc bi_max(const int *a, int *r) { *r = a[0] > a[1] ? a[0] : a[1]; return RC_OK; }

static enum rc bi_gcd(const int *a, int *r) {
    unsigned x = uabs(a[0]), y = uabs(a[1]), t;
    for (; y != 0; x = y, y = t)
        t = x % y;
    *r = (int)x;
    return RC_OK;
}

static enum rc bi_pow(const int *a, int *r) {
    unsigned base = (unsigned)a[0], acc = 1;
    int e = a[1];
    if (e < 0) return RC_DOMAIN;
    for (; e > 0; e >>= 1, base *= base)
        if (e & 1) acc *= base;
    *r = (int)acc;
    return RC_OK;
}

static enum rc bi_sqrt(const int *a, int *r) {
    int lo = 0, hi = 46341, mid;   /* lo*lo <= x < hi*hi */
    if (a[0] < 0) return RC_DOMAIN;
    while (hi - lo > 1) {
        mid = lo + (hi - lo) / 2;
        *(mid * mid <= a[0] ? &lo : &hi) = mid;
    }
    *r = lo;
    return RC_OK;
}

static enum rc bi_clamp(const int *a, int *r) {
    if (a[1] > a[2]) return RC_DOMAIN;
    *r = a[0] < a[1] ? a[1] : a[0] > a[2] ? a[2] : a[0];
    return RC_OK;
}

static const struct builtin { const char *name; int arity; builtin_fn fn; } builtins[] = {
    {"abs", 1, bi_abs}, {"min", 2, bi_min}, {"max", 2, bi_max}, {"gcd", 2, bi_gcd},
    {"pow", 2, bi_pow}, {"sqrt", 1, bi_sqrt}, {"clamp", 3, bi_clamp},
};

/* ---------- opcodes ---------- */
enum opcode {
    OP_PUSH, OP_LOAD, OP_STORE, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_NEG, OP_NOT, OP_BOOL,
    OP_JMP, OP_JZ, OP_JNZ, OP_CALL, OP_PRINT, OP_POP, OP_HALT, OP_COUNT
};

enum arg_kind { A_NONE, A_INT, A_VAR, A_JUMP, A_FUNC };

static const struct { const char *name; enum arg_kind arg; } op_info[OP_COUNT] = {
    {"PUSH", A_INT}, {"LOAD", A_VAR}, {"STORE", A_VAR}, {"ADD", A_NONE},
    {"SUB", A_NONE}, {"MUL", A_NONE}, {"DIV", A_NONE}, {"MOD", A_NONE},
    {"EQ", A_NONE}, {"NE", A_NONE}, {"LT", A_NONE}, {"LE", A_NONE},
    {"GT", A_NONE}, {"GE", A_NONE}, {"NEG", A_NONE}, {"NOT", A_NONE},
    {"BOOL", A_NONE}, {"JMP", A_JUMP}, {"JZ", A_JUMP}, {"JNZ", A_JUMP},
    {"CALL", A_FUNC}, {"PRINT", A_INT}, {"POP", A_NONE}, {"HALT", A_NONE},
};

/* Wrapping 32-bit arithmetic; INT_MIN / -1 wraps instead of trapping. */
static enum rc arith(enum opcode op, int a, int b, int *out) {
    if ((op == OP_DIV || op == OP_MOD) && b == 0) return RC_DIVZERO;
    switch (op) {
    case OP_ADD: *out = UADD(a, b); break;
    case OP_SUB: *out = USUB(a, b); break;
    case OP_MUL: *out = UMUL(a, b); break;
    case OP_DIV: *out = b == -1 ? USUB(0, a) : a / b; break;
    case OP_MOD: *out = b == -1 ? 0 : a % b; break;
    case OP_EQ: *out = a == b; break;
    case OP_NE: *out = a != b; break;
    case OP_LT: *out = a < b; break;
    case OP_LE: *out = a <= b; break;
    case OP_GT: *out = a > b; break;
    case OP_GE: *out = a >= b; break;
    default: *out = 0; break;
    }
    return RC_OK;
}

/* ---------- AST: malloc'd nodes, a tagged union ---------- */
enum node_kind {
    N_NUM, N_VAR, N_NEG, N_NOT, N_BINARY, N_AND, N_OR, N_CALL,
    N_ASSIGN, N_PRINT, N_EXPR, N_IF, N_WHILE, N_BLOCK
};

struct node {
    enum node_kind kind;
    int line;
    struct node *all_next;               /* every node, for freeing */
    union {
        int num;                         /* N_NUM */
        int var;                         /* N_VAR */
        struct node *operand;            /* N_NEG, N_NOT, N_EXPR */
        struct { enum tok_kind op; struct node *lhs, *rhs; } bin;
        struct { int fn, argc; struct node *args[MAX_ARGS]; } call;
        struct { int var; struct node *value; } assign;
        struct { int count; struct node *items[MAX_PRINT]; } print;
        struct { struct node *cond, *then_b, *else_b; } branch;  /* N_IF, N_WHILE */
        struct { struct node **stmts; int count, cap; } block;
    } u;
};

struct symtab { char names[MAX_VARS][MAX_NAME + 1]; int count; };
struct parser { const struct token *toks; int pos; enum rc rc; struct node *all; struct symtab *syms; };

static struct node *new_node(struct parser *p, enum node_kind kind, int line) {
    struct node *n = calloc(1, sizeof *n);
    n->kind = kind, n->line = line, n->all_next = p->all;
    return p->all = n;
}

static void free_nodes(struct node *n) {
    struct node *next;
    for (; n != NULL; n = next) {
        next = n->all_next;
        if (n->kind == N_BLOCK) free(n->u.block.stmts);
        free(n);
    }
}

static void block_add(struct node *b, struct node *s) {
    if (b->u.block.count == b->u.block.cap) {
        b->u.block.cap = b->u.block.cap ? b->u.block.cap * 2 : 4;
        b->u.block.stmts = realloc(b->u.block.stmts, (size_t)b->u.block.cap * sizeof *b->u.block.stmts);
    }
    b->u.block.stmts[b->u.block.count++] = s;
}

/* ---------- recursive-descent parser: NULL means an error was reported ---------- */
static const struct token *peek(const struct parser *p) { return &p->toks[p->pos]; }
static int accept(struct parser *p, enum tok_kind k) { return peek(p)->kind == k ? (p->pos++, 1) : 0; }

static struct node *parse_fail(struct parser *p, enum rc rc, int line, const char *detail) {
    if (p->rc == RC_OK) report(line, rc, detail), p->rc = rc;   /* only the first error is reported */
    return NULL;
}

static struct node *unexpected(struct parser *p, const char *wanted) {
    const struct token *t = peek(p);
    char found[48], msg[128];
    switch (t->kind) {
    case T_NUM: snprintf(found, sizeof found, "number %d", t->value); break;
    case T_IDENT: snprintf(found, sizeof found, "identifier '%s'", t->text); break;
    case T_EOF: snprintf(found, sizeof found, "end of input"); break;
    default: snprintf(found, sizeof found, "'%s'", tok_names[t->kind]); break;
    }
    snprintf(msg, sizeof msg, "expected %s but found %s", wanted, found);
    return parse_fail(p, RC_SYNTAX, t->line, msg);
}

static int expect(struct parser *p, enum tok_kind k) {
    char wanted[16];
    if (accept(p, k)) return 1;
    snprintf(wanted, sizeof wanted, "'%s'", tok_names[k]);
    unexpected(p, wanted);
    return 0;
}

static int intern(struct parser *p, const char *name, int line) {
    struct symtab *st = p->syms;
    char msg[64];
    int i;
    for (i = 0; i < st->count; i++)
        if (strcmp(st->names[i], name) == 0) return i;
    if (st->count == MAX_VARS) {
        snprintf(msg, sizeof msg, "cannot add '%s', the limit is %d", name, MAX_VARS);
        parse_fail(p, RC_TOO_MANY_VARS, line, msg);
        return -1;
    }
    strcpy(st->names[st->count], name);
    return st->count++;
}

static struct node *parse_expr(struct parser *p);
static struct node *parse_stmt(struct parser *p);

static struct node *parse_call(struct parser *p, const struct token *name) {
    char msg[80];
    struct node *n, *arg;
    int fn = COUNT_OF(builtins) - 1;
    while (fn >= 0 && strcmp(builtins[fn].name, name->text) != 0) fn--;
    if (fn < 0) {
        snprintf(msg, sizeof msg, "unknown function '%s'", name->text);
        return parse_fail(p, RC_SYNTAX, name->line, msg);
    }
    p->pos++;   /* '(' */
    n = new_node(p, N_CALL, name->line);
    n->u.call.fn = fn;
    if (peek(p)->kind != T_RPAREN) {
        do {
            if ((arg = parse_expr(p)) == NULL) return NULL;
            if (n->u.call.argc == MAX_ARGS) return parse_fail(p, RC_SYNTAX, arg->line, "too many arguments");
            n->u.call.args[n->u.call.argc++] = arg;
        } while (accept(p, T_COMMA));
    }
    if (!expect(p, T_RPAREN)) return NULL;
    if (n->u.call.argc != builtins[fn].arity) {
        snprintf(msg, sizeof msg, "%s() takes %d argument(s), got %d",
                 builtins[fn].name, builtins[fn].arity, n->u.call.argc);
        return parse_fail(p, RC_SYNTAX, name->line, msg);
    }
    return n;
}

static struct node *parse_primary(struct parser *p) {
    const struct token *t = peek(p);
    struct node *n;
    int var;
    switch (t->kind) {
    case T_NUM:
        p->pos++;
        n = new_node(p, N_NUM, t->line);
        n->u.num = t->value;
        return n;
    case T_LPAREN:
        p->pos++;
        n = parse_expr(p);
        return n != NULL && expect(p, T_RPAREN) ? n : NULL;
    case T_IDENT:
        p->pos++;
        if (peek(p)->kind == T_LPAREN) return parse_call(p, t);
        if ((var = intern(p, t->text, t->line)) < 0) return NULL;
        n = new_node(p, N_VAR, t->line);
        n->u.var = var;
        return n;
    default:
        return unexpected(p, "an expression");
    }
}

static struct node *parse_unary(struct parser *p) {
    const struct token *t = peek(p);
    struct node *operand, *n;
    if (t->kind != T_MINUS && t->kind != T_NOT) return parse_primary(p);
    p->pos++;
    if ((operand = parse_unary(p)) == NULL) return NULL;
    n = new_node(p, t->kind == T_MINUS ? N_NEG : N_NOT, t->line);
    n->u.operand = operand;
    return n;
}

/* Binary operators by precedence, lowest first; each row ends with T_EOF. */
static const enum tok_kind levels[][5] = {
    {T_OR}, {T_AND}, {T_EQ, T_NE}, {T_LT, T_LE, T_GT, T_GE},
    {T_PLUS, T_MINUS}, {T_STAR, T_SLASH, T_PERCENT},
};

static int level_has(int level, enum tok_kind k) {
    int i;
    for (i = 0; levels[level][i] != T_EOF; i++)
        if (levels[level][i] == k) return 1;
    return 0;
}

static struct node *parse_binary(struct parser *p, int level) {
    struct node *lhs, *rhs, *n;
    if (level == COUNT_OF(levels)) return parse_unary(p);
    lhs = parse_binary(p, level + 1);
    while (lhs != NULL && level_has(level, peek(p)->kind)) {
        const struct token *op = &p->toks[p->pos++];
        if ((rhs = parse_binary(p, level + 1)) == NULL) return NULL;
        n = new_node(p, level == 0 ? N_OR : level == 1 ? N_AND : N_BINARY, op->line);
        n->u.bin.op = op->kind, n->u.bin.lhs = lhs, n->u.bin.rhs = rhs;
        lhs = n;
    }
    return lhs;
}

static struct node *parse_expr(struct parser *p) { return parse_binary(p, 0); }

static struct node *parse_block(struct parser *p) {
    struct node *b, *s;
    if (!expect(p, T_LBRACE)) return NULL;
    b = new_node(p, N_BLOCK, p->toks[p->pos - 1].line);
    while (!accept(p, T_RBRACE)) {
        if (peek(p)->kind == T_EOF) return unexpected(p, "'}'");
        if ((s = parse_stmt(p)) == NULL) return NULL;
        block_add(b, s);
    }
    return b;
}

static struct node *parse_stmt(struct parser *p) {
    const struct token *t = peek(p);
    struct node *n, *e;
    int var;
    switch (t->kind) {
    case T_PRINT:
        p->pos++;
        n = new_node(p, N_PRINT, t->line);
        do {
            if ((e = parse_expr(p)) == NULL) return NULL;
            if (n->u.print.count == MAX_PRINT) return parse_fail(p, RC_SYNTAX, e->line, "too many values in print");
            n->u.print.items[n->u.print.count++] = e;
        } while (accept(p, T_COMMA));
        return expect(p, T_SEMI) ? n : NULL;
    case T_IF:
    case T_WHILE:
        p->pos++;
        n = new_node(p, t->kind == T_IF ? N_IF : N_WHILE, t->line);
        if (!expect(p, T_LPAREN) || (n->u.branch.cond = parse_expr(p)) == NULL || !expect(p, T_RPAREN))
            return NULL;
        if ((n->u.branch.then_b = parse_block(p)) == NULL) return NULL;
        if (t->kind == T_IF && accept(p, T_ELSE)) {   /* else if chains nest */
            e = peek(p)->kind == T_IF ? parse_stmt(p) : parse_block(p);
            if ((n->u.branch.else_b = e) == NULL) return NULL;
        }
        return n;
    case T_LBRACE:
        return parse_block(p);
    case T_SEMI:
        p->pos++;
        return new_node(p, N_BLOCK, t->line);
    default:
        break;
    }
    if (t->kind == T_IDENT && p->toks[p->pos + 1].kind == T_ASSIGN) {
        if ((var = intern(p, t->text, t->line)) < 0) return NULL;
        p->pos += 2;
        if ((e = parse_expr(p)) == NULL || !expect(p, T_SEMI)) return NULL;
        n = new_node(p, N_ASSIGN, t->line);
        n->u.assign.var = var, n->u.assign.value = e;
        return n;
    }
    if ((e = parse_expr(p)) == NULL || !expect(p, T_SEMI)) return NULL;
    n = new_node(p, N_EXPR, t->line);
    n->u.operand = e;
    return n;
}

static struct node *parse_program(struct parser *p) {
    struct node *prog = new_node(p, N_BLOCK, 1), *s;
    while (peek(p)->kind != T_EOF) {
        if ((s = parse_stmt(p)) == NULL) return NULL;
        block_add(prog, s);
    }
    return prog;
}

/* ---------- compiler from AST to bytecode ---------- */
struct instr { enum opcode op; int arg, line; };
struct chunk { struct instr *code; int count, cap; };

static int emit(struct chunk *ch, enum opcode op, int arg, int line) {
    if (ch->count == ch->cap) {
        ch->cap = ch->cap ? ch->cap * 2 : 16;
        ch->code = realloc(ch->code, (size_t)ch->cap * sizeof *ch->code);
    }
    ch->code[ch->count].op = op, ch->code[ch->count].arg = arg, ch->code[ch->count].line = line;
    return ch->count++;
}

static void patch(struct chunk *ch, int at) { ch->code[at].arg = ch->count; }

static void compile_expr(struct chunk *ch, const struct node *n) {
    int i, j1, j2;
    switch (n->kind) {
    case N_NUM: emit(ch, OP_PUSH, n->u.num, n->line); break;
    case N_VAR: emit(ch, OP_LOAD, n->u.var, n->line); break;
    case N_NEG: compile_expr(ch, n->u.operand); emit(ch, OP_NEG, 0, n->line); break;
    case N_NOT: compile_expr(ch, n->u.operand); emit(ch, OP_NOT, 0, n->line); break;
    case N_BINARY:
        compile_expr(ch, n->u.bin.lhs);
        compile_expr(ch, n->u.bin.rhs);
        emit(ch, BINOP_OPCODE(n->u.bin.op), 0, n->line);
        break;
    case N_AND:   /* short circuit: the result is always 0 or 1 */
    case N_OR:
        compile_expr(ch, n->u.bin.lhs);
        j1 = emit(ch, n->kind == N_AND ? OP_JZ : OP_JNZ, 0, n->line);
        compile_expr(ch, n->u.bin.rhs);
        emit(ch, OP_BOOL, 0, n->line);
        j2 = emit(ch, OP_JMP, 0, n->line);
        patch(ch, j1);
        emit(ch, OP_PUSH, n->kind == N_OR, n->line);
        patch(ch, j2);
        break;
    case N_CALL:
        for (i = 0; i < n->u.call.argc; i++) compile_expr(ch, n->u.call.args[i]);
        emit(ch, OP_CALL, n->u.call.fn, n->line);
        break;
    default:
        break;   /* statements never occur inside expressions */
    }
}

static void compile_stmt(struct chunk *ch, const struct node *n) {
    int i, j1, j2, top;
    if (n == NULL) return;
    switch (n->kind) {
    case N_EXPR: compile_expr(ch, n->u.operand); emit(ch, OP_POP, 0, n->line); break;
    case N_ASSIGN: compile_expr(ch, n->u.assign.value); emit(ch, OP_STORE, n->u.assign.var, n->line); break;
    case N_PRINT:
        for (i = 0; i < n->u.print.count; i++) compile_expr(ch, n->u.print.items[i]);
        emit(ch, OP_PRINT, n->u.print.count, n->line);
        break;
    case N_IF:
        compile_expr(ch, n->u.branch.cond);
        j1 = emit(ch, OP_JZ, 0, n->line);
        compile_stmt(ch, n->u.branch.then_b);
        if (n->u.branch.else_b != NULL) {
            j2 = emit(ch, OP_JMP, 0, n->line);
            patch(ch, j1);
            compile_stmt(ch, n->u.branch.else_b);
            j1 = j2;
        }
        patch(ch, j1);
        break;
    case N_WHILE:
        top = ch->count;
        compile_expr(ch, n->u.branch.cond);
        j1 = emit(ch, OP_JZ, 0, n->line);
        compile_stmt(ch, n->u.branch.then_b);
        emit(ch, OP_JMP, top, n->line);
        patch(ch, j1);
        break;
    case N_BLOCK:
        for (i = 0; i < n->u.block.count; i++) compile_stmt(ch, n->u.block.stmts[i]);
        break;
    default:
        break;
    }
}

static void format_instr(const struct instr *in, const struct symtab *st, int pc) {
    char operand[32] = "";
    switch (op_info[in->op].arg) {
    case A_INT: snprintf(operand, sizeof operand, "%d", in->arg); break;
    case A_VAR: snprintf(operand, sizeof operand, "%s", st->names[in->arg]); break;
    case A_JUMP: snprintf(operand, sizeof operand, "-> %04d", in->arg); break;
    case A_FUNC: snprintf(operand, sizeof operand, "%s/%d", builtins[in->arg].name, builtins[in->arg].arity); break;
    default: break;
    }
    printf("%04d %-5s %-12s", pc, op_info[in->op].name, operand);
}

static void disassemble(const struct chunk *ch, const struct symtab *st) {
    int pc;
    printf("== bytecode: %d instructions, %d variables ==\n", ch->count, st->count);
    for (pc = 0; pc < ch->count; pc++) {
        format_instr(&ch->code[pc], st, pc);
        if (pc == 0 || ch->code[pc].line != ch->code[pc - 1].line) printf(" ; line %d", ch->code[pc].line);
        putchar('\n');
    }
}

/* ---------- stack virtual machine ---------- */
struct vm {
    const struct chunk *ch;
    const struct symtab *syms;
    int stack[STACK_MAX], sp, max_depth, vars[MAX_VARS];
    unsigned char defined[MAX_VARS];
    long trace_limit, step_limit, steps, op_counts[OP_COUNT];
};

#define PUSH(v) do { if (vm->sp == STACK_MAX) { rc = RC_STACK; goto fail; } \
        vm->stack[vm->sp++] = (v); if (vm->sp > vm->max_depth) vm->max_depth = vm->sp; } while (0)
#define POP() (vm->stack[--vm->sp])

static void trace(const struct vm *vm, int pc, const struct instr *in) {
    int i;
    printf("[%4ld] ", vm->steps);
    format_instr(in, vm->syms, pc);
    printf(" |");
    for (i = 0; i < vm->sp; i++) printf(" %d", vm->stack[i]);
    putchar('\n');
}

static enum rc vm_run(struct vm *vm) {
    const struct instr *in = NULL;
    const struct builtin *bi;
    int pc = 0, a, b, r, i, args[MAX_ARGS];
    enum rc rc = RC_OK;
    char detail[64] = "";
    for (;;) {
        in = &vm->ch->code[pc];
        if (vm->steps == vm->step_limit) {
            rc = RC_STEPS;
            snprintf(detail, sizeof detail, "stopped after %ld instructions", vm->steps);
            goto fail;
        }
        vm->steps++;
        vm->op_counts[in->op]++;
        if (vm->steps <= vm->trace_limit) trace(vm, pc, in);
        pc++;
        switch (in->op) {
        case OP_PUSH: PUSH(in->arg); break;
        case OP_LOAD:
            if (!vm->defined[in->arg]) {
                rc = RC_UNKNOWN_VAR;
                snprintf(detail, sizeof detail, "'%s' is read before it is assigned", vm->syms->names[in->arg]);
                goto fail;
            }
            PUSH(vm->vars[in->arg]);
            break;
        case OP_STORE: vm->vars[in->arg] = POP(), vm->defined[in->arg] = 1; break;
        case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD:
        case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
            b = POP(), a = POP();
            if ((rc = arith(in->op, a, b, &r)) != RC_OK) {
                snprintf(detail, sizeof detail, "%d %s %d", a, in->op == OP_DIV ? "/" : "%", b);
                goto fail;
            }
            PUSH(r);
            break;
        case OP_NEG: a = POP(); PUSH(USUB(0, a)); break;
        case OP_NOT: a = POP(); PUSH(!a); break;
        case OP_BOOL: a = POP(); PUSH(a != 0); break;
        case OP_JMP: pc = in->arg; break;
        case OP_JZ: if (POP() == 0) pc = in->arg; break;
        case OP_JNZ: if (POP() != 0) pc = in->arg; break;
        case OP_CALL:   /* through the function pointer of the built-in */
            bi = &builtins[in->arg];
            for (i = bi->arity - 1; i >= 0; i--) args[i] = POP();
            if ((rc = bi->fn(args, &r)) != RC_OK) {
                snprintf(detail, sizeof detail, "%s() rejects its arguments", bi->name);
                goto fail;
            }
            PUSH(r);
            break;
        case OP_PRINT:
            vm->sp -= in->arg;
            for (i = 0; i < in->arg; i++) printf(i > 0 ? " %d" : "%d", vm->stack[vm->sp + i]);
            putchar('\n');
            break;
        case OP_POP: vm->sp--; break;
        case OP_HALT: return RC_OK;
        default: break;
        }
    }
fail:
    report(in->line, rc, detail);
    return rc;
}

/* ---------- statistics (-s) and variables (-v), ordered with qsort ---------- */
struct op_count { int op; long count; };
static const struct symtab *sort_syms;   /* for cmp_var */

static int cmp_op_count(const void *x, const void *y) {
    const struct op_count *a = x, *b = y;
    if (a->count != b->count) return a->count < b->count ? 1 : -1;
    return a->op - b->op;
}

static int cmp_var(const void *x, const void *y) {
    return strcmp(sort_syms->names[*(const int *)x], sort_syms->names[*(const int *)y]);
}

static void print_stats(const struct vm *vm) {
    struct op_count counts[OP_COUNT];
    int i, n = 0;
    printf("== stats ==\ninstructions executed: %ld\nbytecode size: %d\nmax stack depth: %d of %d\n",
           vm->steps, vm->ch->count, vm->max_depth, STACK_MAX);
    for (i = 0; i < OP_COUNT; i++) {
        if (vm->op_counts[i] == 0) continue;
        counts[n].op = i, counts[n++].count = vm->op_counts[i];
    }
    qsort(counts, (size_t)n, sizeof counts[0], cmp_op_count);
    for (i = 0; i < n; i++) printf("  %-5s %6ld\n", op_info[counts[i].op].name, counts[i].count);
}

static void dump_vars(const struct vm *vm) {
    int order[MAX_VARS], i, v, n = vm->syms->count;
    for (i = 0; i < n; i++) order[i] = i;
    sort_syms = vm->syms;
    qsort(order, (size_t)n, sizeof order[0], cmp_var);
    printf("== variables (%d) ==\n", n);
    for (i = 0; i < n; i++) {
        v = order[i];
        if (vm->defined[v]) printf("%-*s = %d\n", MAX_NAME, vm->syms->names[v], vm->vars[v]);
        else printf("%-*s = (unset)\n", MAX_NAME, vm->syms->names[v]);
    }
}

/* ---------- driver ---------- */
struct options { int disasm, stats, dump_vars; long trace, step_limit; };

static int parse_count(const char *s, long *out) {
    char *end;
    if (s == NULL) return -1;
    *out = strtol(s, &end, 10);
    return end == s || *end != '\0' || *out < 0 ? -1 : 0;
}

/* Flags may be combined (-ds); -t and -l take a count attached or as the next word. */
static int parse_options(int argc, char **argv, struct options *o) {
    int i, j;
    const char *a, *val;
    memset(o, 0, sizeof *o);
    o->step_limit = DEFAULT_STEP_LIMIT;
    for (i = 1; i < argc; i++) {
        a = argv[i];
        if (a[0] != '-' || a[1] == '\0')
            return printf("unexpected argument '%s'\n", a), -1;
        for (j = 1; a[j] != '\0'; j++) {
            switch (a[j]) {
            case 'd': o->disasm = 1; break;
            case 's': o->stats = 1; break;
            case 'v': o->dump_vars = 1; break;
            case 't':
            case 'l':
                val = a[j + 1] != '\0' ? a + j + 1 : i + 1 < argc ? argv[++i] : NULL;
                if (parse_count(val, a[j] == 't' ? &o->trace : &o->step_limit) != 0)
                    return printf("option -%c needs a count\n", a[j]), -1;
                goto next_arg;
            default: return printf("unknown option -%c\n", a[j]), -1;
            }
        }
next_arg:;
    }
    return 0;
}

static char *read_all(FILE *f) {
    size_t cap = 256, len = 0, n;
    char *buf = malloc(cap), line[128];
    while (fgets(line, sizeof line, f) != NULL) {
        n = strlen(line);
        while (len + n + 1 > cap) buf = realloc(buf, cap *= 2);
        memcpy(buf + len, line, n);
        len += n;
    }
    buf[len] = '\0';
    return buf;
}

int main(int argc, char **argv) {
    struct options opt;
    struct token_list toks = {NULL, 0, 0};
    struct symtab syms = {{""}, 0};
    struct parser ps = {NULL, 0, RC_OK, NULL, &syms};
    struct chunk ch = {NULL, 0, 0};
    struct vm *vm = NULL;
    struct node *prog;
    char *src;
    enum rc rc;

    if (parse_options(argc, argv, &opt) != 0)
        return printf("usage: calc_vm [-dsv] [-t N] [-l N] < program\n"), RC_USAGE;
    src = read_all(stdin);
    if ((rc = tokenize(src, &toks)) != RC_OK) goto cleanup;
    ps.toks = toks.items;
    if ((prog = parse_program(&ps)) == NULL) {
        rc = ps.rc;
        goto cleanup;
    }
    compile_stmt(&ch, prog);
    emit(&ch, OP_HALT, 0, toks.items[toks.count - 1].line);
    if (opt.disasm) disassemble(&ch, &syms);
    vm = calloc(1, sizeof *vm);
    vm->ch = &ch, vm->syms = &syms, vm->trace_limit = opt.trace, vm->step_limit = opt.step_limit;
    rc = vm_run(vm);
    if (opt.stats) print_stats(vm);
    if (opt.dump_vars) dump_vars(vm);
cleanup:
    free(vm), free_nodes(ps.all), free(ch.code), free(toks.items), free(src);
    return (int)rc;
}
