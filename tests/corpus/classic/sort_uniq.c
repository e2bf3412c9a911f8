// Classic sort and uniq: K&R definitions with implicit int, a linked-list merge sort, a flag table in the header, a comparison through a function pointer, char parameters promoted, goto for usage errors.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=sort_uniq.1.in
// RUN: args=-r stdin=sort_uniq.1.in
// RUN: args=-n stdin=sort_uniq.2.in
// RUN: args=-nr stdin=sort_uniq.2.in
// RUN: args=-uc stdin=sort_uniq.1.in
// RUN: args=-fd stdin=sort_uniq.1.in
// RUN: args=-x stdin=sort_uniq.1.in
// RUN: args=-c stdin=""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sort_uniq.h"

static int flags;
static int ncompares;
static int (*cmpfn)();

char *
savestr(s)
	char *s;
{
	char *p = malloc(strlen(s) + 1);

	strcpy(p, s);
	return p;
}

fold(c)
	char c;
{
	char *p;

	if (!(flags & F_FOLD))
		return c;
	p = c ? strchr(upper, c) : NULL;
	return p != NULL ? lower[p - upper] : c;
}

static
strfold(a, b)
	register char *a, *b;
{
	while (*a && fold(*a) == fold(*b))
		a++, b++;
	return fold(*a) - fold(*b);
}

/* the order of two lines, by the flags */
compare(a, b)
	NODE *a, *b;
{
	int r;

	ncompares++;
	if (flags & F_NUM)
		r = a->key < b->key ? -1 : a->key > b->key;
	else
		r = 0;
	if (r == 0)
		r = strfold(a->text, b->text);
	return (flags & F_REV) ? -r : r;
}

NODE *
merge(a, b)
	register NODE *a, *b;
{
	NODE head, *t = &head;

	while (a != NULL && b != NULL) {
		/* stable: equal lines keep their input order */
		if ((*cmpfn)(a, b) <= 0) {
			t->next = a;
			a = a->next;
		} else {
			t->next = b;
			b = b->next;
		}
		t = t->next;
	}
	t->next = a != NULL ? a : b;
	return head.next;
}

NODE *
msort(list, n)
	NODE *list;
	int n;
{
	NODE *mid, *p;
	int i, half;

	if (n < 2)
		return list;
	half = n / 2;
	for (p = list, i = 1; i < half; i++)
		p = p->next;
	mid = p->next;
	p->next = NULL;
	return merge(msort(list, half), msort(mid, n - half));
}

/* merge runs of equal lines (by the flags) into their first, counting them */
static
uniq(list)
	NODE *list;
{
	register NODE *p, *q;
	int n = 0;

	for (p = list; p != NULL; p = p->next) {
		n++;
		while ((q = p->next) != NULL && compare(p, q) == 0) {
			p->count += q->count;
			p->next = q->next;
			free(q->text);
			free(q);
		}
	}
	return n;
}

main(argc, argv)
	int argc;
	char **argv;
{
	char line[MAXLINE];
	register char *f;
	char *p;
	NODE *list = NULL, **tail = &list, *np;
	int n = 0, kept;

	while (--argc > 0 && (*++argv)[0] == '-') {
		for (f = argv[0] + 1; *f; f++) {
			if ((p = strchr(flagchars, *f)) == NULL)
				goto usage;
			flags |= flagbits[p - flagchars];
		}
	}
	if (argc > 0)
		goto usage;
	cmpfn = compare;
	while (fgets(line, sizeof line, stdin) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		np = (NODE *)malloc(sizeof *np);
		np->text = savestr(line);
		np->key = strtol(line, NULL, 10);
		np->count = 1;
		np->next = NULL;
		*tail = np;
		tail = &np->next;
		n++;
	}
	list = msort(list, n);
	kept = n;
	if (flags & (F_UNIQ | F_COUNT | F_DUPS))
		kept = uniq(list);
	for (np = list; np != NULL; np = np->next) {
		if ((flags & F_DUPS) && np->count < 2)
			continue;
		if (flags & F_COUNT)
			printf("%7d %s\n", np->count, np->text);
		else
			printf("%s\n", np->text);
	}
	printf("-- %d line(s) in, %d out, %s\n", n, kept,
	    n > 1 ? (ncompares > 0 ? "compared" : "not compared") : "trivial");
	while (list != NULL) {
		np = list->next;
		free(list->text);
		free(list);
		list = np;
	}
	return 0;
usage:
	fprintf(stderr, "usage: sort_uniq [-rncufd]\n");
	printf("usage error\n");
	return 2;
}
