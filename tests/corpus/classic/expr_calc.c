// Classic infix calculator: K&R definitions with implicit int, a scanner over a global cursor, precedence climbing with a table in the header, error exits by goto, variables, -t token dump mode.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=expr_calc.1.in
// RUN: stdin=expr_calc.2.in
// RUN: args=-t stdin="a = 3 * (4 + 5)\nb = a % 7 << 1\n"
// RUN: stdin=""
// RUN: stdin="1 / 0\n2 +\n(3\nq\n"
// RUN: args=-v stdin="x = -9223372036854775807 - 1\nx / -1\nx * 2\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expr_calc.h"

long vars[NVARS];
char defined[NVARS];
static char *cur;
static struct token tok;
static int err;
static int depth;
static int tflag, vflag;
static int nlines, nerrors;

char *
skipws(s)
	register char *s;
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* the next token into tok; returns its kind */
next()
{
	register char *p;
	register long v;

	p = cur = skipws(cur);
	tok.op = 0;
	if (*p == '\0' || *p == '\n') {
		tok.kind = T_END;
		goto done;
	}
	if (*p >= '0' && *p <= '9') {
		v = 0;
		while (*p >= '0' && *p <= '9')
			v = v * 10 + (*p++ - '0');
		tok.kind = T_NUM;
		tok.val = v;
		cur = p;
		goto done;
	}
	cur = p + 1;
	if (ISVAR(*p)) {
		tok.kind = T_VAR;
		tok.val = VARNO(*p);
	} else if (*p == '(')
		tok.kind = T_LPAR;
	else if (*p == ')')
		tok.kind = T_RPAR;
	else if (*p == '=')
		tok.kind = T_ASSIGN;
	else if (*p == '<' && p[1] == '<') {
		tok.kind = T_OP;
		tok.op = '<';
		cur = p + 2;
	} else if (*p == '>' && p[1] == '>') {
		tok.kind = T_OP;
		tok.op = '>';
		cur = p + 2;
	} else if (strchr(opchars, *p) != NULL && *p != '<' && *p != '>') {
		tok.kind = T_OP;
		tok.op = *p;
	} else
		tok.kind = T_BAD;
done:
	if (tflag)
		printf("  token %s%s%c\n", kindname[tok.kind],
		    tok.kind == T_OP ? " " : "", tok.kind == T_OP ? tok.op : ' ');
	return tok.kind;
}

precof(op)
	int op;
{
	register char *p = strchr(opchars, op);

	return p == NULL ? 0 : prec[p - opchars];
}

long
binop(op, a, b)
	int op;
	long a, b;
{
	switch (op) {
	case '+': return (long)((unsigned long)a + (unsigned long)b);
	case '-': return (long)((unsigned long)a - (unsigned long)b);
	case '*': return (long)((unsigned long)a * (unsigned long)b);
	case '/':
	case '%':
		if (b == 0) {
			err = E_DIVZ;
			return 0;
		}
		if (b == -1)	/* LONG_MIN / -1 does not fit: wrap */
			return op == '/' ? (long)(0 - (unsigned long)a) : 0;
		return op == '/' ? a / b : a % b;
	case '&': return a & b;
	case '|': return a | b;
	case '^': return a ^ b;
	case '<': return (long)((unsigned long)a << (b & 63));
	case '>': return a >> (b & 63);
	}
	err = E_SYNTAX;
	return 0;
}

static long primary();

/* precedence climbing: operands joined by operators binding at least minp */
long
eval(minp)
	int minp;
{
	long lhs = 0, rhs;
	int op, p;

	if (++depth > MAXDEPTH) {
		err = E_DEPTH;
		goto out;
	}
	lhs = primary();
	while (err == E_OK && tok.kind == T_OP && (p = precof(tok.op)) >= minp) {
		op = tok.op;
		next();
		rhs = eval(p + 1);
		if (err != E_OK)
			break;
		lhs = binop(op, lhs, rhs);
	}
out:
	depth--;
	return err == E_OK ? lhs : 0;
}

static long
primary()
{
	long v = 0;
	int n;

	switch (tok.kind) {
	case T_NUM:
		v = tok.val;
		next();
		break;
	case T_VAR:
		n = (int)tok.val;
		if (!defined[n]) {
			err = E_UNDEF;
			break;
		}
		v = vars[n];
		next();
		break;
	case T_OP:
		if (tok.op != '-')
			goto bad;
		next();
		v = (long)(0 - (unsigned long)primary());
		break;
	case T_LPAR:
		next();
		v = eval(1);
		if (err != E_OK)
			break;
		if (tok.kind != T_RPAR) {
			err = E_PAREN;
			break;
		}
		next();
		break;
	default:
bad:
		err = E_SYNTAX;
	}
	return v;
}

/* one line: `var = expr` or `expr`; prints the value or the error */
doline(line)
	char *line;
{
	char *save;
	int target = -1;
	long v;

	err = E_OK;
	depth = 0;
	cur = line;
	if (next() == T_END)
		return 0;
	if (tok.kind == T_VAR) {
		save = cur;
		target = (int)tok.val;
		if (next() != T_ASSIGN) {
			cur = save - 1;	/* back over the variable */
			target = -1;
			next();
		} else
			next();
	}
	v = eval(1);
	if (err == E_OK && tok.kind != T_END)
		err = tok.kind == T_RPAR ? E_PAREN : E_TRAIL;
	if (err != E_OK) {
		nerrors++;
		printf("line %d: %s\n", nlines, errmsg[err]);
		return 1;
	}
	if (target >= 0) {
		vars[target] = v;
		defined[target] = 1;
		if (vflag)
			printf("%c = %ld\n", 'a' + target, v);
	} else
		printf("%ld\n", v);
	return 0;
}

static void
dumpvars()
{
	register int i;
	int any = 0;

	for (i = 0; i < NVARS; i++)
		if (defined[i]) {
			printf("%s%c=%ld", any ? " " : "vars: ", 'a' + i, vars[i]);
			any = 1;
		}
	if (any)
		putchar('\n');
}

main(argc, argv)
	int argc;
	char **argv;
{
	char line[MAXLINE];
	register char *p;

	while (--argc > 0 && (*++argv)[0] == '-')
		for (p = argv[0] + 1; *p; p++)
			switch (*p) {
			case 't':
				tflag++;
				break;
			case 'v':
				vflag++;
				break;
			default:
				fprintf(stderr, "expr_calc: unknown flag %c\n", *p);
				exit(2);
			}
	while (fgets(line, sizeof line, stdin) != NULL) {
		nlines++;
		if (line[0] == 'q' && (line[1] == '\n' || line[1] == '\0'))
			break;
		if (line[0] == '#')
			continue;
		doline(line);
	}
	dumpvars();
	printf("%d line(s), %d error(s)\n", nlines, nerrors);
	return nerrors > 0 ? 1 : 0;
}
