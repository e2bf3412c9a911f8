// Classic cross-referencer: K&R definitions with implicit int, a chained hash table, a keyword table and a character class table in the header, a scanner with ungetc that skips comments and strings, qsort of symbol pointers, gotos out of nested loops.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=xref.1.in
// RUN: args=-k stdin=xref.1.in
// RUN: args=-n 2 stdin=xref.2.in
// RUN: stdin=""
// RUN: stdin="/* unterminated\nint x;\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xref.h"

static SYM *table[HASHSIZE];
static int lineno = 1;
static int kflag;		/* list keywords too */
static int minrefs = 1;
static int nsyms;
static int unterminated;

unsigned
hash(s)
	register char *s;
{
	register unsigned h = 0;

	while (*s)
		h = h * 31 + (unsigned char)*s++;
	return h % HASHSIZE;
}

SYM *
lookup(name)
	char *name;
{
	register SYM *sp;
	unsigned h = hash(name);

	for (sp = table[h]; sp != NULL; sp = sp->link)
		if (strcmp(sp->name, name) == 0)
			return sp;
	sp = (SYM *)calloc(1, sizeof(SYM));
	strncpy(sp->name, name, MAXWORD - 1);
	sp->link = table[h];
	table[h] = sp;
	nsyms++;
	return sp;
}

iskeyword(w)
	char *w;
{
	register char **k;

	for (k = keywords; *k != 0; k++)
		if (strcmp(*k, w) == 0)
			return 1;
	return 0;
}

static
addref(sp, line)
	SYM *sp;
	int line;
{
	REF *rp;

	sp->count++;
	if (sp->last != NULL && sp->last->line == line)
		return;
	rp = (REF *)malloc(sizeof(REF));
	rp->line = line;
	rp->next = NULL;
	if (sp->last == NULL)
		sp->refs = rp;
	else
		sp->last->next = rp;
	sp->last = rp;
}

/* the next identifier into w; EOF at the end */
getword(w)
	char *w;
{
	register int c, n;
	int quote;

again:
	while ((c = getchar()) != EOF && !(CLASS(c) & (C_ALPHA | C_QUOTE | C_SLASH)))
		if (c == '\n')
			lineno++;
		else if (CLASS(c) & C_DIGIT) {
			while ((c = getchar()) != EOF && (CLASS(c) & (C_ALPHA | C_DIGIT)))
				;
			/* the character after a number is looked at again */
			if (c != EOF)
				ungetc(c, stdin);
		}
	if (c == EOF)
		return EOF;
	if (c == '\n')
		lineno++;
	if (CLASS(c) & C_SLASH) {
		if ((c = getchar()) != '*') {
			ungetc(c, stdin);
			goto again;
		}
		for (;;) {
			c = getchar();
			if (c == EOF) {
				unterminated = 1;
				return EOF;
			}
			if (c == '\n')
				lineno++;
			if (c == '*') {
				while ((c = getchar()) == '*')
					;
				if (c == '/')
					goto again;
				if (c == '\n')
					lineno++;
				if (c == EOF) {
					unterminated = 1;
					return EOF;
				}
			}
		}
	}
	if (CLASS(c) & C_QUOTE) {
		quote = c;
		while ((c = getchar()) != EOF && c != quote && c != '\n')
			if (c == '\\' && getchar() == '\n')
				lineno++;
		if (c == '\n')
			lineno++;
		goto again;
	}
	n = 0;
	do {
		if (n < MAXWORD - 1)
			w[n++] = (char)c;
	} while ((c = getchar()) != EOF && (CLASS(c) & (C_ALPHA | C_DIGIT)));
	w[n] = '\0';
	if (c != EOF)
		ungetc(c, stdin);
	return n;
}

static int
bynames(a, b)
	const void *a, *b;
{
	return strcmp((*(SYM **)a)->name, (*(SYM **)b)->name);
}

static
initclass()
{
	register int c;

	for (c = 'a'; c <= 'z'; c++)
		ctab[c] = ctab[c - 'a' + 'A'] = C_ALPHA;
	ctab['_'] = C_ALPHA;
	for (c = '0'; c <= '9'; c++)
		ctab[c] = C_DIGIT;
	ctab['"'] = ctab['\''] = C_QUOTE;
	ctab['/'] = C_SLASH;
}

main(argc, argv)
	int argc;
	char **argv;
{
	char word[MAXWORD];
	SYM **all, *sp;
	REF *rp;
	register int i, k;
	int shown = 0, nrefs;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "-k") == 0)
			kflag = 1;
		else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			minrefs = atoi(argv[++i]);
		else {
			printf("usage: xref [-k] [-n N]\n");
			return 2;
		}
	initclass();
	while (getword(word) != EOF)
		if (kflag || !iskeyword(word))
			addref(lookup(word), lineno);
	all = (SYM **)malloc((nsyms + 1) * sizeof(SYM *));
	for (i = k = 0; i < HASHSIZE; i++)
		for (sp = table[i]; sp != NULL; sp = sp->link)
			all[k++] = sp;
	qsort(all, k, sizeof(SYM *), bynames);
	for (i = 0; i < k; i++) {
		sp = all[i];
		if (sp->count < minrefs)
			continue;
		shown++;
		printf("%-12s %3d ", sp->name, sp->count);
		nrefs = 0;
		for (rp = sp->refs; rp != NULL; rp = rp->next) {
			if (++nrefs > MAXREFS) {
				printf(" ...");
				goto next;
			}
			printf(" %d", rp->line);
		}
	next:
		putchar('\n');
	}
	printf("%d symbol(s), %d shown, %d line(s)%s\n", k, shown, lineno - 1,
	    unterminated ? ", unterminated comment" : "");
	free(all);
	return unterminated;
}
