// Classic bignum calculator: K&R definitions with implicit int, char and short parameters promoted, digit arrays in structs passed by pointer, tables in the header, overflow reported through a goto.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=big_num.1.in
// RUN: stdin=big_num.2.in
// RUN: args=-t stdin="+ 99999999999999999999 1\n* 123456789 987654321\n"
// RUN: stdin=""
// RUN: stdin="! 300\n- 5 7\nx 1 2\n+ 12a 3\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "big_num.h"

static int tflag;
static int overflow;

static
trim(a)
	BIG *a;
{
	while (a->len > 1 && a->d[a->len - 1] == 0)
		a->len--;
}

/* a from a decimal string; 0 when it is not one */
bigset(a, s)
	BIG *a;
	char *s;
{
	register int n, i;

	n = (int)strlen(s);
	if (n == 0 || n > MAXDIG)
		return 0;
	for (i = 0; i < n; i++) {
		if (!ISDIGIT(s[n - 1 - i]))
			return 0;
		a->d[i] = (char)(s[n - 1 - i] - '0');
	}
	a->len = n;
	trim(a);
	return 1;
}

/* a from a small number */
bigsmall(a, v)
	BIG *a;
	long v;
{
	a->len = 0;
	do {
		a->d[a->len++] = (char)(v % BASE);
		v /= BASE;
	} while (v > 0);
}

bigcmp(a, b)
	BIG *a, *b;
{
	register int i;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	for (i = a->len - 1; i >= 0; i--)
		if (a->d[i] != b->d[i])
			return a->d[i] < b->d[i] ? -1 : 1;
	return 0;
}

BIG *
bigadd(r, a, b)
	BIG *r, *a, *b;
{
	register int i, carry = 0, s;
	int n = a->len > b->len ? a->len : b->len;

	for (i = 0; i < n || carry; i++) {
		if (i >= MAXDIG) {
			overflow = 1;
			break;
		}
		s = carry + (i < a->len ? a->d[i] : 0) + (i < b->len ? b->d[i] : 0);
		r->d[i] = (char)(s % BASE);
		carry = s / BASE;
	}
	r->len = i;
	trim(r);
	return r;
}

/* r = a - b for a >= b */
BIG *
bigsub(r, a, b)
	BIG *r, *a, *b;
{
	register int i, borrow = 0, s;

	for (i = 0; i < a->len; i++) {
		s = a->d[i] - borrow - (i < b->len ? b->d[i] : 0);
		borrow = s < 0;
		r->d[i] = (char)(borrow ? s + BASE : s);
	}
	r->len = a->len;
	trim(r);
	return r;
}

BIG *
bigmul(r, a, b)
	BIG *r, *a, *b;
{
	static int acc[2 * MAXDIG + 1];
	register int i, j;
	int n;

	n = a->len + b->len;
	memset(acc, 0, sizeof acc);
	for (i = 0; i < a->len; i++)
		for (j = 0; j < b->len; j++)
			acc[i + j] += a->d[i] * b->d[j];
	for (i = 0; i < n; i++) {
		acc[i + 1] += acc[i] / BASE;
		acc[i] %= BASE;
	}
	while (n > 1 && acc[n - 1] == 0)
		n--;
	if (n > MAXDIG) {
		overflow = 1;
		n = MAXDIG;
	}
	for (i = 0; i < n; i++)
		r->d[i] = (char)acc[i];
	r->len = n;
	return r;
}

static
print(a)
	BIG *a;
{
	register int i;

	for (i = a->len - 1; i >= 0; i--)
		putchar('0' + a->d[i]);
	putchar('\n');
}

/* the digit sum and the small primes that divide a */
static
report(a, width)
	BIG *a;
	short width;
{
	register int i, k;
	long rem, sum = 0;

	for (i = 0; i < a->len; i++)
		sum += a->d[i];
	printf("  %d digit(s), digit sum %ld, divisible by", a->len, sum);
	for (k = 0; k < (int)NPRIMES; k++) {
		rem = 0;
		for (i = a->len - 1; i >= 0; i--)
			rem = (rem * BASE + a->d[i]) % primes[k];
		if (rem == 0)
			printf(" %d", primes[k]);
	}
	if (a->len > width)
		printf(" (wide)");
	putchar('\n');
}

static
trace(op)
	char op;
{
	char *p = strchr(opcodes, op);

	if (tflag && p != NULL)
		printf("# %s\n", opnames[p - opcodes]);
}

main(argc, argv)
	int argc;
	char **argv;
{
	char line[512], op[4], x[MAXDIG + 2], y[MAXDIG + 2];
	static BIG a, b, r, t;
	long i, n;
	int got, nerr = 0;

	tflag = argc > 1 && strcmp(argv[1], "-t") == 0;
	while (fgets(line, sizeof line, stdin) != NULL) {
		overflow = 0;
		got = sscanf(line, "%3s %401s %401s", op, x, y);
		if (got < 2)
			continue;
		trace(op[0]);
		switch (op[0]) {
		case '+':
		case '-':
		case '*':
		case 'c':
			if (got < 3 || !bigset(&a, x) || !bigset(&b, y))
				goto bad;
			if (op[0] == '+')
				bigadd(&r, &a, &b);
			else if (op[0] == '*')
				bigmul(&r, &a, &b);
			else if (op[0] == 'c') {
				printf("%d\n", bigcmp(&a, &b));
				continue;
			} else {
				if (bigcmp(&a, &b) < 0) {
					putchar('-');
					bigsub(&r, &b, &a);
				} else
					bigsub(&r, &a, &b);
			}
			break;
		case '!':
			n = atol(x);
			bigsmall(&r, 1);
			for (i = 2; i <= n && !overflow; i++) {
				bigsmall(&t, i);
				bigmul(&r, &r, &t);
			}
			break;
		case 'f':
			n = atol(x);
			bigsmall(&a, 0);
			bigsmall(&b, 1);
			for (i = 0; i < n && !overflow; i++) {
				bigadd(&t, &a, &b);
				a = b;
				b = t;
			}
			r = a;
			break;
		case 'p':
			if (got < 3 || !bigset(&a, x))
				goto bad;
			n = atol(y);
			bigsmall(&r, 1);
			for (i = 0; i < n && !overflow; i++)
				bigmul(&r, &r, &a);
			break;
		default:
			goto bad;
		}
		if (overflow) {
			printf("overflow\n");
			nerr++;
			continue;
		}
		print(&r);
		report(&r, 40);
		continue;
bad:
		nerr++;
		printf("bad input: %s", line);
	}
	printf("%d error(s)\n", nerr);
	return nerr != 0;
}
