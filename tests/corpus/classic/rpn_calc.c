// Classic dc-like RPN calculator: operator table of function pointers in the header, BINOP macro-generated K&R functions, registers, radix output, goto error label inside the read loop.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=rpn_calc.1.in
// RUN: stdin=rpn_calc.2.in
// RUN: stdin=rpn_calc.3.in
// RUN: args=-v stdin=""
// RUN: args=-v stdin="1 2 + p q 5 p\n"
// RUN: stdin="7dddddddddddddddddddddddddddddddddddd z p + + p\n"
// RUN: args=-x stdin="1 p\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpn_calc.h"

long stack[STACKSIZE], *sp = stack;
long reg[NREGS];
int obase = 10;
static int nerrors;
static int vflag;

BINOP(op_add, a + b)
BINOP(op_sub, a - b)
BINOP(op_mul, a * b)

/* the quotient of LONG_MIN by -1 does not fit: it wraps, as negation does */
op_div()
{
	register long *p = sp - 2;

	if (p[1] == 0)
		return E_DIVZ;
	p[0] = p[1] == -1 ? -p[0] : p[0] / p[1];
	sp--;
	return E_OK;
}

op_rem()
{
	register long *p = sp - 2;

	if (p[1] == 0)
		return E_REMZ;
	p[0] = p[1] == -1 ? 0 : p[0] % p[1];
	sp--;
	return E_OK;
}

/* power by repeated squaring; the products wrap */
op_exp()
{
	register long *p = sp - 2;
	long base = p[0], e = p[1], r = 1;

	if (e < 0)
		return E_NEGEXP;
	while (e > 0) {
		if (e & 1)
			r *= base;
		base *= base;
		e >>= 1;
	}
	p[0] = r;
	sp--;
	return E_OK;
}

op_dup()
{
	return push(TOP);
}

op_swap()
{
	long t = sp[-1];

	sp[-1] = sp[-2];
	sp[-2] = t;
	return E_OK;
}

op_print()
{
	print_num(TOP, obase);
	putchar('\n');
	return E_OK;
}

op_pop()
{
	print_num(*--sp, obase);
	return E_OK;
}

/* dump the stack, top first, without changing it */
op_dump()
{
	register long *p;

	for (p = sp; p > stack; ) {
		print_num(*--p, obase);
		putchar('\n');
	}
	return E_OK;
}

op_clear()
{
	sp = stack;
	return E_OK;
}

op_depth()
{
	return push((long) DEPTH());
}

op_obase()
{
	if (TOP < 2 || TOP > MAXBASE)
		return E_BASE;
	obase = *--sp;
	return E_OK;
}

op_neg()
{
	TOP = -TOP;
	return E_OK;
}

push(v)
long v;
{
	if (sp >= stack + STACKSIZE)
		return E_FULL;
	*sp++ = v;
	return E_OK;
}

/*
 * print_num: v in the given base; the magnitude is taken unsigned
 * so that the most negative value prints too.
 */
print_num(v, base)
long v;
short base;
{
	char buf[72];
	register char *p = buf + sizeof buf;
	unsigned long u;

	u = v < 0 ? -(unsigned long) v : (unsigned long) v;
	*--p = '\0';
	do {
		*--p = digits[u % base];
		u /= base;
	} while (u != 0);
	if (v < 0)
		*--p = '-';
	fputs(p, stdout);
}

Op *
findop(c)
char c;
{
	register Op *op;

	for (op = optab; op->name != 0; op++)
		if (op->name == c)
			return op;
	return NULL;
}

/*
 * getnum: a decimal number whose first digit is c; dc spells a
 * minus sign as '_'.
 */
long
getnum(c)
register c;
{
	long n = 0;
	int neg = 0;

	if (c == '_') {
		neg = 1;
		c = getchar();
	}
	while (c >= '0' && c <= '9') {
		n = n * 10 + (c - '0');
		c = getchar();
	}
	if (c != EOF)
		ungetc(c, stdin);
	return neg ? -n : n;
}

/* skip: read past blanks and comments; the next character */
static
skip()
{
	register c;

again:
	c = getchar();
	if (c == ' ' || c == '\t' || c == '\n')
		goto again;
	if (c == '#') {
		while ((c = getchar()) != '\n' && c != EOF)
			;
		goto again;
	}
	return c;
}

main(argc, argv)
int argc;
char **argv;
{
	register c;
	int err, r;
	Op *op;

	while (--argc > 0) {
		if (strcmp(*++argv, "-v") == 0)
			vflag = 1;
		else {
			printf("usage: rpn_calc [-v]\n");
			exit(2);
		}
	}
	while ((c = skip()) != EOF) {
		switch (c) {
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
		case '_':
			if ((err = push(getnum(c))) != E_OK)
				goto error;
			continue;
		case 's':
		case 'l':
			r = getchar();
			if (!ISREG(r)) {
				if (r != EOF)
					ungetc(r, stdin);
				err = E_REG;
				goto error;
			}
			err = E_OK;
			if (c == 'l')
				err = push(reg[REGNO(r)]);
			else if (DEPTH() < 1)
				err = E_UNDER;
			else
				reg[REGNO(r)] = *--sp;
			if (err != E_OK)
				goto error;
			continue;
		case 'q':
			goto done;
		default:
			if ((op = findop(c)) == NULL) {
				printf("dc: '%c' (%#o) %s\n", c, c, errtab[E_UNIMP]);
				nerrors++;
				continue;
			}
			if (DEPTH() < op->nargs) {
				err = E_UNDER;
				goto error;
			}
			if ((err = (*op->fn)()) != E_OK)
				goto error;
			if (vflag)
				printf("[%s]\n", op->what);
			continue;
		}
	error:
		printf("dc: %s\n", errtab[err]);
		nerrors++;
	}
done:
	if (vflag) {
		printf("%d error%s, depth %d\n", nerrors, nerrors == 1 ? "" : "s",
		    (int) DEPTH());
		for (r = 0; r < NREGS; r++)
			if (reg[r] != 0)
				printf("register %c = %ld\n", regnames[r], reg[r]);
	}
	return nerrors ? 1 : 0;
}
