// Classic base converter: K&R definitions with implicit int, digit tables and a prefix table in the header, a format struct, unsigned long arithmetic, char parameters promoted, a conversion buffer filled backwards with pointer arithmetic, gotos for bad input.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=base_conv.1.in
// RUN: args=-u stdin=base_conv.1.in
// RUN: args=-g -s stdin="255\n-1\n0b101010\n0\n"
// RUN: args=-b 36 stdin="35\n36\n1295\n0xffffffffffffffff\n"
// RUN: stdin=""
// RUN: args=-b 1 stdin="5\n"
// RUN: stdin="12z\n0x\n99999999999999999999999\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base_conv.h"

static int uflag, gflag, sflag, extra = 0;
static int nbad;

digitval(c, base)
	char c;
	int base;
{
	register int i;

	if (c == '\0')
		return -1;
	for (i = 0; i < base; i++)
		if (digits[i] == c || updigits[i] == c)
			return i;
	return -1;
}

/* the number of bits set and the highest one (-1 for 0) */
static
bits(v, high)
	unsigned long v;
	int *high;
{
	register int n = 0, i = 0;

	*high = -1;
	for (; v != 0; v >>= 1, i++)
		if (v & 1) {
			n++;
			*high = i;
		}
	return n;
}

/* a number in any of the accepted forms into *v; 0 when it is not one */
parse(s, v)
	char *s;
	unsigned long *v;
{
	register int i, d;
	int base = 10, neg = 0;
	unsigned long r = 0, lim;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	for (i = 0; prefixes[i] != 0; i++)
		if (strncmp(s, prefixes[i], 2) == 0) {
			base = prefbase[i];
			s += 2;
			break;
		}
	if (*s == '\0')
		goto bad;
	if (base == 10 && *s == '0' && s[1] != '\0')
		base = 8;
	lim = ~0UL / (unsigned long)base;
	for (; *s && *s != '\n'; s++) {
		if ((d = digitval(*s, base)) < 0)
			goto bad;
		if (r > lim || (r == lim && (unsigned long)d > ~0UL % (unsigned long)base))
			goto bad;	/* does not fit */
		r = r * (unsigned long)base + (unsigned long)d;
	}
	*v = neg ? 0 - r : r;
	return 1;
bad:
	return 0;
}

/* v in f->base into a static buffer, filled from the end */
char *
convert(v, f)
	unsigned long v;
	FMT *f;
{
	static char buf[MAXDIGITS + 40];
	register char *p = buf + sizeof buf - 1;
	char *tab = f->upper ? updigits : digits;
	int n = 0;

	*p = '\0';
	do {
		if (f->group && n > 0 && n % f->group == 0)
			*--p = '_';
		*--p = tab[v % (unsigned long)f->base];
		v /= (unsigned long)f->base;
		n++;
	} while (v != 0 || n < f->width);
	return p;
}

static
line(v, extra_base)
	unsigned long v;
	int extra_base;
{
	FMT f;

	memset(&f, 0, sizeof f);
	f.group = gflag ? GROUP(2) : 0;
	if (uflag)
		printf("%20lu", v);
	else
		printf("%20ld", (long)v);
	f.base = 16;
	f.group = gflag ? GROUP(16) : 0;
	printf("  0x%s", convert(v, &f));
	f.base = 8;
	f.group = gflag ? GROUP(8) : 0;
	printf("  0o%s", convert(v, &f));
	f.base = 2;
	f.group = gflag ? GROUP(2) : 0;
	f.width = v > 0xffffUL ? 0 : 16;
	printf("  0b%s", convert(v, &f));
	if (sflag) {
		int high, n = bits(v, &high);

		printf("  [%d set, high %d]", n, high);
	}
	if (extra_base) {
		f.base = extra_base;
		f.group = 0;
		f.width = 0;
		f.upper = 1;
		printf("  (%d)%s", extra_base, convert(v, &f));
	}
	putchar('\n');
}

main(argc, argv)
	int argc;
	char **argv;
{
	char buf[128];
	unsigned long v;
	register int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-u") == 0)
			uflag = 1;
		else if (strcmp(argv[i], "-g") == 0)
			gflag = 1;
		else if (strcmp(argv[i], "-s") == 0)
			sflag = 1;
		else if (strcmp(argv[i], "-b") == 0 && i + 1 < argc) {
			extra = atoi(argv[++i]);
			if (extra < 2 || extra > 36)
				goto usage;
		} else
			goto usage;
	}
	while (fgets(buf, sizeof buf, stdin) != NULL) {
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0] == '\0')
			continue;
		if (!parse(buf, &v)) {
			printf("bad number: %s\n", buf);
			nbad++;
			continue;
		}
		line(v, extra);
	}
	printf("%d bad\n", nbad);
	return nbad ? 1 : 0;
usage:
	printf("usage: base_conv [-u] [-g] [-s] [-b base]\n");
	return 2;
}
