// Classic paragraph filler: fill and justify (or center) to a width from argv, word buffer of NUL-terminated words with pointer tables slid down by pointer arithmetic, option table lookup via strchr, gotos.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=text_fill.1.in
// RUN: args=-n 30 stdin=text_fill.1.in
// RUN: args=-c 50 stdin=text_fill.1.in
// RUN: args=-l 20 stdin=text_fill.2.in
// RUN: args=-n 12 stdin=text_fill.2.in
// RUN: args=-n stdin=""
// RUN: args=-n 3
// RUN: args=-cx 40 stdin="a b\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text_fill.h"

char wbuf[WBUFSIZE], *wp = wbuf;
char *words[MAXWORDS];
short wlen[MAXWORDS];
int nwords;
Stats st;

static int width = DEFWIDTH;
static int flags;
static int dir;		/* which end of the line gets the odd spaces */

static
pad(n, c)
register n;
char c;
{
	while (n-- > 0)
		putchar(c);
}

/*
 * emit: put out words[i..j), len characters with single spaces;
 * stretch it to the full width when asked.
 */
emit(i, j, len, stretch)
int i, j, len, stretch;
{
	register k;
	int gaps = j - i - 1, extra = width - len;
	int each = 0, rem = 0, n, g;

	st.lines++;
	if (flags & F_NUMBER)
		printf("%3d ", st.lines);
	if (flags & F_CENTER) {
		if (extra > 0)
			pad(extra / 2, ' ');
		stretch = 0;
	}
	if (stretch && gaps > 0 && extra > 0) {
		each = extra / gaps;
		rem = extra % gaps;
	}
	for (k = i; k < j; k++) {
		fputs(words[k], stdout);
		if (k == j - 1)
			break;
		n = 1 + each;
		g = k - i;
		if (rem > 0 && (dir ? g >= gaps - rem : g < rem))
			n++;
		pad(n, ' ');
	}
	putchar('\n');
	if (rem > 0)
		dir = !dir;
}

/*
 * flush: put out the lines of the words held.  Unless final, the
 * last line may still grow and is kept back -- but at least one line
 * goes out, so that room is always made.  Returns the words used.
 */
flush(final)
int final;
{
	register i = 0, j;
	int len;

	while (i < nwords) {
		len = wlen[i];
		for (j = i + 1; j < nwords && len + 1 + wlen[j] <= width; j++)
			len += 1 + wlen[j];
		if (!final && j == nwords && i > 0)
			break;
		emit(i, j, len, !(flags & F_LEFT) && !(final && j == nwords));
		i = j;
	}
	return i;
}

/*
 * slide: forget the first n words and move the rest, with whatever
 * follows them from rest on, to the front of the buffer.  Returns how
 * far they moved.
 */
slide(n, rest)
int n;
char *rest;
{
	register k;
	char *from;
	long delta;

	from = n < nwords ? words[n] : rest;
	delta = from - wbuf;
	memmove(wbuf, from, wp - from);
	for (k = n; k < nwords; k++) {
		words[k - n] = words[k] - delta;
		wlen[k - n] = wlen[k];
	}
	nwords -= n;
	wp -= delta;
	return delta;
}

endpara()
{
	if (nwords == 0)
		return 0;
	if (st.paras++ > 0)
		putchar('\n');
	flush(1);
	slide(nwords, wp);
	return 1;
}

/*
 * endword: finish the word that starts at s, whose characters run up
 * to wp; returns where the next word may start.
 */
char *
endword(s)
char *s;
{
	register n;

	*wp++ = '\0';
	n = wp - s - 1;
	words[nwords] = s;
	wlen[nwords++] = n;
	st.words++;
	if (n > 0 && strchr(endpunct, s[n - 1]) != NULL)
		st.sentences++;
	return wp;
}

static
readtext()
{
	register c;
	int newlines = 0;
	char *start;

	while ((c = getchar()) != EOF) {
		switch (c) {
		case '\n':
			if (++newlines >= 2)
				endpara();
			continue;
		case ' ':
		case '\t':
		case '\r':
			continue;
		}
		newlines = 0;
		if (nwords == MAXWORDS) {
			slide(flush(0), wp);
			st.slides++;
		}
		start = wp;
		while (c != EOF && c != '\n' && !BLANK(c)) {
			while (ROOM() < 2) {
				if (nwords == 0)
					goto toolong;
				start -= slide(flush(0), start);
				st.slides++;
			}
			*wp++ = c;
			c = getchar();
			continue;
		toolong:
			st.truncated++;
			while ((c = getchar()) != EOF && c != '\n' && !BLANK(c))
				;
			break;
		}
		endword(start);
		if (c == EOF)
			break;
		if (c == '\n')
			newlines = 1;
	}
	endpara();
}

main(argc, argv)
int argc;
char **argv;
{
	register char *s, *p;
	int err, mode, nargs = 0;

	while (--argc > 0) {
		s = *++argv;
		if (*s == '-') {
			while (*++s) {
				if ((p = strchr(optchars, *s)) == NULL) {
					err = E_OPTION;
					goto usage;
				}
				flags |= optbits[p - optchars];
			}
			continue;
		}
		if (nargs++ > 0) {
			err = E_ARGS;
			goto usage;
		}
		if (strspn(s, "0123456789") != strlen(s) || strlen(s) > 3)
			goto badwidth;
		width = atoi(s);
		if (width < MINWIDTH || width > MAXWIDTH)
			goto badwidth;
	}
	readtext();
	if (flags & F_NUMBER) {
		mode = flags & F_CENTER ? M_CENTER : flags & F_LEFT ? M_LEFT : M_JUST;
		printf("-- %d lines, %d words, %d sentences, %d paragraphs, %s to %d\n",
		    st.lines, st.words, st.sentences, st.paras, modenames[mode], width);
		if (st.truncated)
			printf("-- %d words too long, cut\n", st.truncated);
		if (st.slides)
			printf("-- buffer slid %d times\n", st.slides);
	}
	return 0;
badwidth:
	err = E_WIDTH;
usage:
	printf("text_fill: %s\n", errmsgs[err]);
	printf("usage: text_fill [-%s] [width]\n", optchars);
	exit(2);
}
