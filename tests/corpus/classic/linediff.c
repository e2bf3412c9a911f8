// Classic line diff: LCS table over two texts split by "----", normal and ed-style output, K&R definitions, string pool with pointer arithmetic, header tables, goto error exits.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=linediff.1.in
// RUN: args=-e stdin=linediff.1.in
// RUN: args=-q stdin=linediff.2.in
// RUN: args=-q stdin=linediff.3.in
// RUN: args=-w stdin=linediff.3.in
// RUN: args=-e stdin="----\nnew one\n.\nnew three\n"
// RUN: stdin="only\nold text\n"
// RUN: args=-qx stdin=linediff.2.in
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "linediff.h"

static char pool[POOLSIZE];
static char *pp = pool;
Line text[2][MAXLINES];
int nlines[2];
static short lcs[MAXLINES + 1][MAXLINES + 1];
Hunk hunks[MAXHUNKS];
int nhunks;
int eflag, qflag, wflag;

/*
 * save_line: copy n characters of s into the pool; NULL if it is full.
 */
char *
save_line(s, n)
char *s;
int n;
{
	register char *p;

	if (pp + n + 1 > pool + POOLSIZE)
		return NULL;
	p = pp;
	memcpy(p, s, n);
	p[n] = '\0';
	pp += n + 1;
	return p;
}

/*
 * hash_line: hash of a line; blanks are skipped when they do not count.
 */
unsigned
hash_line(s, blanks)
register char *s;
char blanks;
{
	register unsigned h = 0;
	int k = 0;

	for (; *s; s++) {
		if (blanks && BLANK(*s))
			continue;
		h = h * hashmul[k] + (unsigned char) *s;
		if (++k == NELEM(hashmul))
			k = 0;
	}
	return h;
}

/*
 * same: are two lines equal (ignoring blanks under -w)?
 */
static
same(x, y)
Line *x, *y;
{
	register char *s, *t;

	if (x->hash != y->hash)
		return 0;
	if (!wflag)
		return x->len == y->len && strcmp(x->text, y->text) == 0;
	s = x->text;
	t = y->text;
	for (;;) {
		while (BLANK(*s))
			s++;
		while (BLANK(*t))
			t++;
		if (*s != *t)
			return 0;
		if (*s == '\0')
			return 1;
		s++, t++;
	}
}

/*
 * readtexts: read the old text, the separator and the new text.
 * Returns E_OK or an error code.
 */
readtexts()
{
	char buf[LINESIZE];
	register which = 0;
	int n;
	char *p;
	Line *lp;

	while (fgets(buf, sizeof buf, stdin) != NULL) {
		n = strlen(buf);
		if (n > 0 && buf[n - 1] == '\n')
			buf[--n] = '\0';
		else if (n == sizeof buf - 1)
			goto toolong;
		if (which == 0 && strcmp(buf, SEPARATOR) == 0) {
			which = 1;
			continue;
		}
		if (nlines[which] >= MAXLINES)
			goto toomany;
		if ((p = save_line(buf, n)) == NULL)
			goto full;
		lp = &text[which][nlines[which]++];
		lp->text = p;
		lp->len = n;
		lp->hash = hash_line(p, wflag);
	}
	return which ? E_OK : E_NOSEP;
toolong:
	return E_LONG;
toomany:
	return E_MANY;
full:
	return E_POOL;
}

/*
 * build_table: lcs[i][j] = length of the longest common subsequence
 * of old[i..m) and new[j..n).  Returns the whole length.
 */
build_table(m, n)
int m, n;
{
	register i, j;
	Line *a = text[0], *b = text[1];

	for (i = m; i >= 0; i--)
		for (j = n; j >= 0; j--) {
			if (i == m || j == n)
				lcs[i][j] = 0;
			else if (same(&a[i], &b[j]))
				lcs[i][j] = lcs[i + 1][j + 1] + 1;
			else
				lcs[i][j] = MAX(lcs[i + 1][j], lcs[i][j + 1]);
		}
	return lcs[0][0];
}

/*
 * collect: walk the table from the top, gathering runs of unmatched
 * lines into hunks.
 */
collect(m, n)
int m, n;
{
	register i = 0, j = 0;
	Hunk *h;

	nhunks = 0;
	while (i < m || j < n) {
		if (i < m && j < n && same(&text[0][i], &text[1][j])) {
			i++, j++;
			continue;
		}
		h = &hunks[nhunks++];
		h->a0 = i;
		h->b0 = j;
		while (i < m || j < n) {
			if (i < m && j < n && same(&text[0][i], &text[1][j]))
				break;
			if (j >= n || (i < m && lcs[i + 1][j] >= lcs[i][j + 1]))
				i++;
			else
				j++;
		}
		h->a1 = i;
		h->b1 = j;
		if (h->a0 == h->a1)
			h->kind = H_ADD;
		else if (h->b0 == h->b1)
			h->kind = H_DEL;
		else
			h->kind = H_CHG;
	}
	return nhunks;
}

static
range(lo, hi)
int lo, hi;
{
	if (lo == hi)
		printf("%d", lo);
	else
		printf("%d,%d", lo, hi);
}

static
show_lines(mark, which, lo, hi)
char mark;
int which, lo, hi;
{
	register Line *p;

	for (p = &text[which][lo]; p < &text[which][hi]; p++) {
		if (mark)
			printf("%c %s\n", mark, p->text);
		else if (strcmp(p->text, ".") == 0)
			puts("..");	/* ed would end the input here */
		else
			puts(p->text);
	}
}

/*
 * print_normal: hunks in order, "3,4c3" with < and > lines.
 */
print_normal()
{
	register Hunk *h;

	for (h = hunks; h < hunks + nhunks; h++) {
		if (h->kind == H_ADD)
			printf("%d", h->a0);
		else
			range(h->a0 + 1, h->a1);
		fputs(kindname[h->kind], stdout);
		if (h->kind == H_DEL)
			printf("%d", h->b0);
		else
			range(h->b0 + 1, h->b1);
		putchar('\n');
		show_lines(marks[0], 0, h->a0, h->a1);
		if (h->kind == H_CHG)
			puts("---");
		show_lines(marks[1], 1, h->b0, h->b1);
	}
	return nhunks;
}

/*
 * print_ed: an ed script, last hunk first so line numbers stay good.
 */
print_ed()
{
	register k;
	Hunk *h;

	for (k = nhunks; --k >= 0; ) {
		h = hunks + k;
		switch (h->kind) {
		case H_ADD:
			printf("%d%s\n", h->a0, kindname[H_ADD]);
			break;
		case H_DEL:
		case H_CHG:
			range(h->a0 + 1, h->a1);
			printf("%s\n", kindname[h->kind]);
			break;
		}
		if (h->kind != H_DEL) {
			show_lines('\0', 1, h->b0, h->b1);
			puts(".");
		}
	}
	return nhunks;
}

static
show_ratio(name, ratio)
char *name;
float ratio;
{
	printf("%s %.1f%%\n", name, ratio * 100);
}

main(argc, argv)
int argc;
char **argv;
{
	register char *s;
	int err, common, total;

	while (--argc > 0 && (*++argv)[0] == '-')
		for (s = argv[0] + 1; *s; s++)
			switch (*s) {
			case 'e':
				eflag++;
				break;
			case 'q':
				qflag++;
				break;
			case 'w':
				wflag++;
				break;
			default:
				goto usage;
			}
	if (argc > 0)
		goto usage;
	if ((err = readtexts()) != E_OK)
		goto trouble;
	common = build_table(nlines[0], nlines[1]);
	collect(nlines[0], nlines[1]);
	if (qflag) {
		printf("%s %d lines, %s %d lines, %d in common, %d hunks\n",
		    textname[0], nlines[0], textname[1], nlines[1], common, nhunks);
		total = nlines[0] + nlines[1];
		show_ratio("similarity", total ? 2.0 * common / total : 1.0);
		puts(nhunks ? "texts differ" : "texts are the same");
	} else if (eflag)
		print_ed();
	else
		print_normal();
	return nhunks ? DIFFER : SAME;
usage:
	err = E_USAGE;
trouble:
	printf("linediff: %s\n", errmsg[err]);
	exit(TROUBLE);
}
