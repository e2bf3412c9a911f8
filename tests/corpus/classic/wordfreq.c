// Classic word frequency counter: K&R definitions with implicit int, an open hash table of malloc'd chains that grows through a table of primes in the header, a hand-written shell sort with a gap table, ctype macros, ungetc lookahead, gotos for the retry and error paths, everything freed at the end.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type -Wno-sign-compare
// RUN: args=5 stdin=wordfreq.1.in
// RUN: args=3 -s stdin=wordfreq.1.in
// RUN: args=12 -s stdin=wordfreq.2.in
// RUN:
// RUN: args=abc stdin=wordfreq.1.in
// RUN: args=0 -s stdin="Don't stop; don't 'quote' it's\n"
// RUN: args=4 stdin="Supercalifragilisticexpialidocious supercalifragilisticexpialidocious b B b' x9x\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "wordfreq.h"

static Table tab;
static long totwords, ncut;

char *
dup_str(s)
	char *s;
{
	register char *p;

	if ((p = malloc(strlen(s) + 1)) == NULL) {
		printf("out of memory\n");
		exit(2);
	}
	return strcpy(p, s);
}

unsigned
hash(s, size)
	register char *s;
	unsigned size;
{
	register unsigned h = 0;

	while (*s)
		h = h * HASHMUL + (unsigned char)*s++;
	return h % size;
}

inittab(idx)
	int idx;
{
	tab.sizeidx = idx;
	tab.size = primes[idx];
	tab.bucket = (Node **)calloc(tab.size, sizeof(Node *));
	if (tab.bucket == NULL) {
		printf("out of memory\n");
		exit(2);
	}
}

/* move every node into a table of the next size */
grow()
{
	Node **old = tab.bucket, *n, *next;
	unsigned oldsize = tab.size, i, h;

	if (primes[tab.sizeidx + 1] == 0)
		return 0;	/* as big as it gets: the chains grow */
	inittab(tab.sizeidx + 1);
	for (i = 0; i < oldsize; i++)
		for (n = old[i]; n != NULL; n = next) {
			next = n->next;
			h = hash(n->word, tab.size);
			n->next = tab.bucket[h];
			tab.bucket[h] = n;
		}
	free(old);
	tab.ngrow++;
	return 1;
}

Node *
lookup(word, create)
	char *word;
	int create;
{
	register Node *n;
	unsigned h;

retry:
	h = hash(word, tab.size);
	for (n = tab.bucket[h]; n != NULL; n = n->next)
		if (strcmp(n->word, word) == 0)
			goto found;
	if (!create)
		return NULL;
	if (tab.nwords >= LOADMAX * (long)tab.size && grow())
		goto retry;
	n = (Node *)malloc(sizeof(Node));
	if (n == NULL) {
		printf("out of memory\n");
		exit(2);
	}
	n->word = dup_str(word);
	n->count = 0;
	n->next = tab.bucket[h];
	tab.bucket[h] = n;
	tab.nwords++;
found:
	return n;
}

/* the next word, lower case, into buf; 0 at the end of the input.
   An apostrophe between letters belongs to the word. */
getword(buf, max)
	char *buf;
	int max;
{
	register c;
	register char *p = buf;
	int cut = 0, next;

skip:
	c = getchar();
	if (c == EOF)
		return 0;
	if (!ISWORDCH(c))
		goto skip;
	for (;;) {
		if (p < buf + max - 1)
			*p++ = LOWER(c);
		else
			cut = 1;
		c = getchar();
		if (c == '\'' && p > buf) {
			next = getchar();
			if (next != EOF && ISWORDCH(next)) {
				if (p < buf + max - 1)
					*p++ = '\'';
				else
					cut = 1;
				c = next;
				continue;
			}
			ungetc(next, stdin);
		}
		if (c == EOF || !ISWORDCH(c))
			break;
	}
	*p = '\0';
	ncut += cut;
	return p - buf;
}

/* higher counts first, then alphabetical */
cmpnode(a, b)
	Node *a, *b;
{
	if (a->count != b->count)
		return b->count - a->count;
	return strcmp(a->word, b->word);
}

shellsort(v, n)
	Node **v;
	int n;
{
	register i, j;
	int g, gap;
	Node *t;

	for (g = 0; g < NGAPS; g++) {
		gap = gaps[g];
		if (gap >= n)
			continue;
		for (i = gap; i < n; i++) {
			t = v[i];
			for (j = i; j >= gap && cmpnode(v[j - gap], t) > 0; j -= gap)
				v[j] = v[j - gap];
			v[j] = t;
		}
	}
}

/* chain lengths: how full the table is */
chainstats()
{
	register unsigned i;
	register Node *n;
	int len, longest = 0, empty = 0, hist[5];

	memset(hist, 0, sizeof hist);
	for (i = 0; i < tab.size; i++) {
		len = 0;
		for (n = tab.bucket[i]; n != NULL; n = n->next)
			len++;
		if (len == 0)
			empty++;
		if (len > longest)
			longest = len;
		hist[len < 4 ? len : 4]++;
	}
	printf("table: %u buckets after %d growths, %d empty, longest chain %d\n",
	    tab.size, tab.ngrow, empty, longest);
	printf("chains of 0..3 and more: %d %d %d %d %d\n",
	    hist[0], hist[1], hist[2], hist[3], hist[4]);
}

freeall(v)
	Node **v;
{
	register long i;

	for (i = 0; i < tab.nwords; i++) {
		free(v[i]->word);
		free(v[i]);
	}
	free(v);
	free(tab.bucket);
}

main(argc, argv)
	int argc;
	char **argv;
{
	char word[MAXWORD];
	int top = DEFTOP, sflag = 0, i;
	unsigned b;
	Node **v, **vp, *n;
	char *end;

	for (i = 1; i < argc; i++)
		switch (argv[i][0]) {
		case '-':
			if (strcmp(argv[i], "-s") != 0)
				goto usage;
			sflag = 1;
			break;
		default:
			top = (int)strtol(argv[i], &end, 10);
			if (end == argv[i] || *end != '\0')
				goto usage;
			break;
		}
	inittab(0);
	while (getword(word, MAXWORD) > 0) {
		totwords++;
		lookup(word, 1)->count++;
	}
	vp = v = (Node **)malloc((tab.nwords + 1) * sizeof(Node *));
	if (v == NULL) {
		printf("out of memory\n");
		exit(2);
	}
	for (b = 0; b < tab.size; b++)
		for (n = tab.bucket[b]; n != NULL; n = n->next)
			*vp++ = n;
	shellsort(v, (int)(vp - v));
	for (i = 0; i < top && i < tab.nwords; i++)
		printf("%5d %s\n", v[i]->count, v[i]->word);
	printf("%ld words, %ld distinct", totwords, tab.nwords);
	if (ncut)
		printf(", %ld cut to %d letters", ncut, MAXWORD - 1);
	putchar('\n');
	if (sflag) {
		chainstats();
		n = lookup("the", 0);
		printf("\"the\": %d\n", n != NULL ? n->count : 0);
	}
	freeall(v);
	return 0;
usage:
	printf("usage: wordfreq [-s] [top]\n");
	return 1;
}
