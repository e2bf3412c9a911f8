// Classic number converter: Roman numerals both ways (with canonical-form validation) and English cardinal/ordinal words, digit-name and numeral tables in the header, string building by pointer, mode letters from argv.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type -Wno-parentheses
// RUN: args=-r stdin=roman_words.1.in
// RUN: args=-a stdin=roman_words.2.in
// RUN: args=-w stdin=roman_words.3.in
// RUN: args=-o stdin="1 2 3 4 5 8 9 12 20 21 40 99 100 101 1000000 111 0 -3\n"
// RUN: stdin="1994 2024 0\n"
// RUN: args=-ar stdin="X\n"
// RUN: args=-q
// RUN: args=-w stdin=""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "roman_words.h"

static const maxroman = MAXROMAN;
static int nconv, nerrs;

/*
 * put: copy s to p, return the new end (always NUL terminated).
 */
char *
put(p, s)
register char *p, *s;
{
	while (*p = *s++)
		p++;
	return p;
}

/*
 * to_roman: n (1..3999) as a Roman numeral in buf.
 */
char *
to_roman(buf, n)
char *buf;
int n;
{
	register Numeral *np;
	char *p = buf;

	*p = '\0';
	for (np = numerals; np < numerals + NUMERALS; np++)
		while (n >= np->val) {
			p = put(p, np->sym);
			n -= np->val;
		}
	return buf;
}

romval(c)
char c;
{
	char *p;

	c = toupper((unsigned char) c);
	if (c == '\0' || (p = strchr(romchars, c)) == NULL)
		return 0;
	return romvals[p - romchars];
}

/*
 * from_roman: value of the numeral s in *vp; an error code unless
 * s is a well formed numeral.  *vp is set even when it is not
 * canonical, so the caller can suggest the right spelling.
 */
from_roman(s, vp)
char *s;
int *vp;
{
	register char *p;
	int v, next, total = 0;
	char canon[TOKSIZE + 8], upper[TOKSIZE];

	for (p = s; *p; p++) {
		if ((v = romval(*p)) == 0)
			goto badchar;
		next = romval(p[1]);
		total += v < next ? -v : v;
		upper[p - s] = toupper((unsigned char) *p);
	}
	upper[p - s] = '\0';
	*vp = total;
	if (total <= 0 || total > maxroman)
		goto range;
	if (strcmp(to_roman(canon, total), upper) != 0)
		return E_CANON;
	return E_OK;
badchar:
	return E_CHAR;
range:
	return E_RANGE;
}

/*
 * say_small: English for 0 < n < 1000, appended at p.
 */
char *
say_small(p, n)
register char *p;
short n;
{
	if (n >= 100) {
		p = put(p, ones[n / 100]);
		p = put(p, " hundred");
		n %= 100;
		if (n)
			*p++ = ' ';
	}
	if (n >= 20) {
		p = put(p, tens[n / 10]);
		if (n % 10) {
			*p++ = '-';
			p = put(p, ones[n % 10]);
		}
	} else if (n > 0)
		p = put(p, ones[n]);
	*p = '\0';
	return p;
}

/*
 * say: English for n, |n| <= MAXWORDS, in buf.
 */
char *
say(buf, n)
char *buf;
long n;
{
	int groups[4];
	register k;
	char *p = buf;

	if (n == 0)
		return strcpy(buf, "zero");
	if (n < 0) {
		p = put(p, "minus ");
		n = -n;
	}
	for (k = 0; k < 4; k++) {
		groups[k] = n % 1000;
		n /= 1000;
	}
	for (k = 3; k >= 0; k--) {
		if (groups[k] == 0)
			continue;
		if (p > buf && p[-1] != ' ')
			*p++ = ' ';
		p = say_small(p, groups[k]);
		if (k > 0) {
			*p++ = ' ';
			p = put(p, scales[k]);
		}
	}
	return buf;
}

/*
 * ordinal: turn the cardinal words in buf into the ordinal, by
 * changing the last word: first, second ... twentieth, hundredth.
 */
char *
ordinal(buf)
char *buf;
{
	register Irregular *ip;
	char *last, *h;
	int n;

	last = strrchr(buf, ' ');
	h = strrchr(buf, '-');
	if (h != NULL && (last == NULL || h > last))
		last = h;
	last = last ? last + 1 : buf;
	for (ip = irregular; ip->cardinal; ip++)
		if (strcmp(last, ip->cardinal) == 0) {
			strcpy(last, ip->ordinal);
			return buf;
		}
	n = strlen(last);
	if (n > 0 && last[n - 1] == 'y')
		strcpy(last + n - 1, "ieth");
	else
		strcat(last, "th");
	return buf;
}

/*
 * getnum: the token as a number, or an error code.
 */
static
getnum(tok, np)
char *tok;
long *np;
{
	char *end;

	*np = strtol(tok, &end, 10);
	if (end == tok || *end != '\0')
		return E_NUMBER;
	return E_OK;
}

static
convert(tok, mode, tags)
char *tok;
int mode, tags;
{
	char out[WORDSIZE];
	long n;
	int err, v, ranged = 0;
	register bit;

	if (mode == M_ARABIC) {
		if ((err = from_roman(tok, &v)) == E_CANON) {
			printf("%s: %s (%d is %s)\n", tok, errmsgs[err], v, to_roman(out, v));
			goto bad;
		}
		if (err != E_OK)
			goto fail;
		printf("%s -> %d\n", tok, v);
		goto good;
	}
	if ((err = getnum(tok, &n)) != E_OK)
		goto fail;
	for (bit = 0; modeletters[bit]; bit++) {
		if (!(mode & 1 << bit))
			continue;
		if (tags)
			printf("%s %s ", tok, modenames[bit]);
		else
			printf("%s ", tok);
		switch (1 << bit) {
		case M_ROMAN:
			if (n < 1 || n > maxroman)
				goto range;
			puts(to_roman(out, (int) n));
			break;
		case M_WORDS:
		case M_ORDINAL:
			if (n < -MAXWORDS || n > MAXWORDS)
				goto range;
			if (1 << bit == M_ORDINAL) {
				if (n < 1)
					goto range;
				ordinal(say(out, n));
			} else
				say(out, n);
			puts(out);
			break;
		}
		continue;
	range:
		printf("-- %s\n", errmsgs[E_RANGE]);
		nerrs++;
		ranged++;
	}
	if (ranged)
		return 0;
good:
	nconv++;
	return 1;
fail:
	printf("%s: %s\n", tok, errmsgs[err]);
bad:
	nerrs++;
	return 0;
}

main(argc, argv)
int argc;
char **argv;
{
	char tok[TOKSIZE];
	register char *s;
	char *p;
	int mode = 0, nmodes = 0, err;

	while (--argc > 0) {
		s = *++argv;
		if (*s++ != '-' || *s == '\0') {
			err = E_USAGE;
			goto usage;
		}
		for (; *s; s++) {
			if ((p = strchr(modeletters, *s)) == NULL) {
				err = E_USAGE;
				goto usage;
			}
			mode |= 1 << (p - modeletters);
		}
	}
	if (mode == 0)
		mode = M_ROMAN | M_WORDS;
	if ((mode & M_ARABIC) && mode != M_ARABIC) {
		err = E_MIX;
		goto usage;
	}
	for (err = 0; err < 4; err++)
		if (mode & 1 << err)
			nmodes++;
	while (scanf("%31s", tok) == 1)
		convert(tok, mode, nmodes > 1);
	printf("-- %d converted, %d errors\n", nconv, nerrs);
	return nerrs ? 1 : 0;
usage:
	printf("roman_words: %s\n", errmsgs[err]);
	return 2;
}
