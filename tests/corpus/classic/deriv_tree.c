// Classic expression trees: K&R definitions with implicit int, a static node pool, postfix input with a stack, infix printing with minimal parentheses by a precedence table in the header, symbolic derivative and simplification by recursion, gotos for errors.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=deriv_tree.1.in
// RUN: args=3 stdin=deriv_tree.1.in
// RUN: args=-2 stdin="x x * x *\nx 1 + x 1 - /\n"
// RUN: stdin=""
// RUN: stdin="1 +\nx y *\n1 2 3\n4 0 /\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "deriv_tree.h"

static TNODE pool[POOLSIZE];
static int used;
static int err;
static long xval = 2;

TNODE *
mknode(kind, l, r)
	int kind;
	TNODE *l, *r;
{
	register TNODE *t;

	if (used >= POOLSIZE) {
		err = 1;
		return &pool[0];
	}
	t = &pool[used++];
	t->kind = kind;
	t->val = 0;
	t->l = l;
	t->r = r;
	return t;
}

TNODE *
num(v)
	long v;
{
	TNODE *t = mknode(N_NUM, (TNODE *)0, (TNODE *)0);

	t->val = v;
	return t;
}

#define ISNUM(t, v)	((t)->kind == N_NUM && (t)->val == (v))

/* a few algebraic rules, bottom up: constants folded, 0 and 1 dropped */
TNODE *
simplify(t)
	TNODE *t;
{
	TNODE *l, *r;

	if (t->kind == N_NUM || t->kind == N_VAR)
		return t;
	l = simplify(t->l);
	r = t->r ? simplify(t->r) : (TNODE *)0;
	switch (t->kind) {
	case N_NEG:
		if (l->kind == N_NUM)
			return num(-l->val);
		if (l->kind == N_NEG)
			return l->l;
		break;
	case N_ADD:
		if (ISNUM(l, 0))
			return r;
		if (ISNUM(r, 0))
			return l;
		if (l->kind == N_NUM && r->kind == N_NUM)
			return num(l->val + r->val);
		break;
	case N_SUB:
		if (ISNUM(r, 0))
			return l;
		if (ISNUM(l, 0))
			return simplify(mknode(N_NEG, r, (TNODE *)0));
		if (l->kind == N_NUM && r->kind == N_NUM)
			return num(l->val - r->val);
		break;
	case N_MUL:
		if (ISNUM(l, 0) || ISNUM(r, 0))
			return num(0);
		if (ISNUM(l, 1))
			return r;
		if (ISNUM(r, 1))
			return l;
		if (l->kind == N_NUM && r->kind == N_NUM)
			return num(l->val * r->val);
		break;
	case N_DIV:
		if (ISNUM(r, 1))
			return l;
		if (ISNUM(l, 0) && !ISNUM(r, 0))
			return num(0);
		break;
	}
	if (l == t->l && r == t->r)
		return t;
	return mknode(t->kind, l, r);
}

/* d/dx by the usual rules */
TNODE *
deriv(t)
	TNODE *t;
{
	switch (t->kind) {
	case N_NUM:
		return num(0);
	case N_VAR:
		return num(1);
	case N_NEG:
		return mknode(N_NEG, deriv(t->l), (TNODE *)0);
	case N_ADD:
	case N_SUB:
		return mknode(t->kind, deriv(t->l), deriv(t->r));
	case N_MUL:
		return mknode(N_ADD, mknode(N_MUL, deriv(t->l), t->r),
		    mknode(N_MUL, t->l, deriv(t->r)));
	case N_DIV:
		return mknode(N_DIV,
		    mknode(N_SUB, mknode(N_MUL, deriv(t->l), t->r),
			mknode(N_MUL, t->l, deriv(t->r))),
		    mknode(N_MUL, t->r, t->r));
	}
	err = 1;
	return num(0);
}

long
evaltree(t)
	TNODE *t;
{
	long a, b;

	switch (t->kind) {
	case N_NUM:
		return t->val;
	case N_VAR:
		return xval;
	case N_NEG:
		return -evaltree(t->l);
	}
	a = evaltree(t->l);
	b = evaltree(t->r);
	switch (t->kind) {
	case N_ADD: return a + b;
	case N_SUB: return a - b;
	case N_MUL: return a * b;
	}
	if (b == 0) {
		err = 2;
		return 0;
	}
	return a / b;
}

/* infix with parentheses only where precedence or order needs them */
printtree(t, parentprec, rightside)
	TNODE *t;
	int parentprec, rightside;
{
	int p = kprec[t->kind];
	int paren;

	if (t->kind == N_NUM) {
		printf(t->val < 0 ? "(%ld)" : "%ld", t->val);
		return;
	}
	if (t->kind == N_VAR) {
		putchar('x');
		return;
	}
	paren = p < parentprec || (p == parentprec && rightside);
	if (paren)
		putchar('(');
	if (t->kind == N_NEG) {
		putchar('-');
		printtree(t->l, p, 0);
	} else {
		printtree(t->l, p, 0);
		printf(" %c ", kindch[t->kind]);
		printtree(t->r, p, !commutes[t->kind]);
	}
	if (paren)
		putchar(')');
}

/* a postfix line into a tree; NULL on error */
static TNODE *
parse(line)
	char *line;
{
	TNODE *stack[STACKSIZE];
	int sp = 0, k;
	char *tok;
	char *p;

	for (tok = strtok(line, " \t\n"); tok != NULL; tok = strtok(NULL, " \t\n")) {
		if (sp >= STACKSIZE)
			goto bad;
		if (strcmp(tok, "x") == 0)
			stack[sp++] = mknode(N_VAR, (TNODE *)0, (TNODE *)0);
		else if (tok[0] >= '0' && tok[0] <= '9')
			stack[sp++] = num(strtol(tok, NULL, 10));
		else if (strcmp(tok, "~") == 0) {
			if (sp < 1)
				goto bad;
			stack[sp - 1] = mknode(N_NEG, stack[sp - 1], (TNODE *)0);
		} else if (tok[1] == '\0' && (p = strchr(kindch, tok[0])) != NULL
		    && ISOP(p - kindch)) {
			k = (int)(p - kindch);
			if (sp < 2)
				goto bad;
			sp--;
			stack[sp - 1] = mknode(k, stack[sp - 1], stack[sp]);
		} else
			goto bad;
	}
	if (sp != 1)
		goto bad;
	return stack[0];
bad:
	return (TNODE *)0;
}

main(argc, argv)
	int argc;
	char **argv;
{
	char line[256];
	TNODE *t, *d;
	long v;
	int n = 0, bad = 0;

	if (argc > 1)
		xval = atol(argv[1]);
	while (fgets(line, sizeof line, stdin) != NULL) {
		n++;
		used = 0;
		err = 0;
		if ((t = parse(line)) == NULL) {
			printf("%d: bad postfix\n", n);
			bad++;
			continue;
		}
		printf("%d: f = ", n);
		printtree(t, 0, 0);
		v = evaltree(t);
		printf("\n   f(%ld) = %ld%s\n", xval, v, err == 2 ? " (division by zero)" : "");
		err = 0;
		d = simplify(deriv(t));
		printf("   f' = ");
		printtree(d, 0, 0);
		v = evaltree(d);
		printf("\n   f'(%ld) = %ld%s\n", xval, v,
		    err == 2 ? " (division by zero)" : err ? " (pool full)" : "");
		printf("   %d node(s)\n", used);
	}
	printf("%d expression(s), %d bad\n", n, bad);
	return bad ? 1 : 0;
}
