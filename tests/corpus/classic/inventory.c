// Classic stock report: K&R definitions with implicit int, an array of item records, short and float parameters promoted, a category table in the header, qsort with a comparison on computed values, money in cents, gotos for rejected transactions.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=inventory.1.in
// RUN: args=-v stdin=inventory.1.in
// RUN: stdin=inventory.2.in
// RUN: stdin=""
// RUN: stdin="S X1 1\nA X1 widget 9 5 100 2\nA X1 again 0 1 1 1\nS X1 9\nQ\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inventory.h"

static ITEM items[MAXITEMS];
static int nitems;
static int vflag;
static long revenue, spent;
static int rejected;

ITEM *
find(code)
	char *code;
{
	register ITEM *ip;

	for (ip = items; ip < items + nitems; ip++)
		if (strcmp(ip->code, code) == 0)
			return ip;
	return (ITEM *)0;
}

/* at most n - 1 characters of src, terminated */
static
copystr(dst, src, n)
	register char *dst, *src;
	int n;
{
	while (--n > 0 && *src)
		*dst++ = *src++;
	*dst = '\0';
}

/* selling price in cents: cost plus the category's markup, rounded to 5 cents */
long
price(ip)
	ITEM *ip;
{
	long p = ip->cost * (100 + markup[ip->cat]);

	p = (p + 50) / 100;
	return (p + 2) / 5 * 5;
}

/* a discount factor as old code passed it: float, promoted to double */
static long
discounted(amount, factor)
	long amount;
	float factor;
{
	return (long)(amount * factor + 0.5);
}

static
need(ip, level)
	ITEM *ip;
	short level;
{
	return ip->qty < level;
}

/* one transaction line; 0 when rejected */
transact(line)
	char *line;
{
	char code[16], name[64], *p;
	int cat, n;
	long qty, cost, arg;
	ITEM *ip;

	if (line[0] == '\n' || line[0] == '#')
		return 1;
	if ((p = strchr(txcodes, line[0])) == NULL || line[0] == '\0')
		goto reject;
	switch (*p) {
	case 'A':
		n = sscanf(line + 1, "%15s %63s %d %ld %ld %ld", code, name, &cat, &qty, &cost, &arg);
		if (n != 6 || cat < 0 || cat >= NCAT || nitems >= MAXITEMS || find(code) != NULL)
			goto reject;
		ip = &items[nitems++];
		copystr(ip->code, code, (int)sizeof ip->code);
		copystr(ip->name, name, NAMELEN);
		ip->sold = ip->received = 0;
		ip->cat = cat;
		ip->qty = qty;
		ip->cost = cost;
		ip->reorder = (short)arg;
		spent += qty * cost;
		break;
	case 'S':
		if (sscanf(line + 1, "%15s %ld", code, &qty) != 2 || (ip = find(code)) == NULL)
			goto reject;
		if (qty <= 0 || qty > ip->qty)
			goto reject;
		ip->qty -= qty;
		ip->sold += qty;
		arg = price(ip) * qty;
		if (qty >= 10)
			arg = discounted(arg, 0.9f);
		revenue += arg;
		if (vflag)
			printf("sold %ld %s for %ld.%02ld\n", qty, ip->name, CENTS(arg));
		break;
	case 'R':
		if (sscanf(line + 1, "%15s %ld", code, &qty) != 2 || (ip = find(code)) == NULL || qty <= 0)
			goto reject;
		ip->qty += qty;
		ip->received += qty;
		spent += qty * ip->cost;
		break;
	case 'P':
		if (sscanf(line + 1, "%15s %ld", code, &cost) != 2 || (ip = find(code)) == NULL || cost <= 0)
			goto reject;
		ip->cost = cost;
		break;
	case 'D':
		if (sscanf(line + 1, "%15s", code) != 1 || (ip = find(code)) == NULL)
			goto reject;
		*ip = items[--nitems];
		break;
	}
	return 1;
reject:
	rejected++;
	if (vflag)
		printf("rejected: %s", line);
	return 0;
}

/* by stock value, largest first; then by code */
byvalue(a, b)
	const void *a, *b;
{
	const ITEM *x = a, *y = b;
	long vx = x->qty * x->cost, vy = y->qty * y->cost;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	return strcmp(x->code, y->code);
}

main(argc, argv)
	int argc;
	char **argv;
{
	char line[128];
	register int i, c;
	long value, total = 0, catvalue[NCAT];
	int reorders = 0;

	vflag = argc > 1 && strcmp(argv[1], "-v") == 0;
	while (fgets(line, sizeof line, stdin) != NULL) {
		if (line[0] == 'Q')
			break;
		transact(line);
	}
	qsort(items, nitems, sizeof(ITEM), byvalue);
	memset(catvalue, 0, sizeof catvalue);
	printf("%-6s %-16s %-6s %5s %9s %9s\n", "code", "name", "cat", "qty", "price", "value");
	for (i = 0; i < nitems; i++) {
		value = items[i].qty * items[i].cost;
		total += value;
		catvalue[items[i].cat] += value;
		printf("%-6s %-16s %-6s %5ld %6ld.%02ld %6ld.%02ld%s\n", items[i].code,
		    items[i].name, catname[items[i].cat], items[i].qty, CENTS(price(&items[i])),
		    CENTS(value), need(&items[i], items[i].reorder) ? " REORDER" : "");
		if (need(&items[i], items[i].reorder))
			reorders++;
	}
	for (c = 0; c < NCAT; c++)
		if (catvalue[c])
			printf("  %-6s %6ld.%02ld\n", catname[c], CENTS(catvalue[c]));
	printf("stock value %ld.%02ld; bought %ld.%02ld; sold %ld.%02ld\n", CENTS(total),
	    CENTS(spent), CENTS(revenue));
	printf("%d item(s), %d to reorder, %d rejected\n", nitems, reorders, rejected);
	return rejected ? 1 : 0;
}
