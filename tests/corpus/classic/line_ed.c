// Classic line editor (ed-like): K&R definitions with implicit int, a doubly linked list of lines, addresses with . $ + - and marks, a command table in the header, s/old/new/ with &, gotos for command errors.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=line_ed.1.in
// RUN: stdin=line_ed.2.in
// RUN: stdin=""
// RUN: stdin="a\none\ntwo\n.\n5p\nx\n1,2p\n"
// RUN: args=-s stdin=line_ed.1.in
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "line_ed.h"

static LINE head;		/* sentinel: head.next is line 1 */
static int nlines;
static int dot;
static int sflag;
static int nerr;
static char *cp;		/* command cursor */

LINE *
getline_n(n)
	int n;
{
	register LINE *lp = &head;

	if (n < 0 || n > nlines)
		return NULL;
	while (n-- > 0)
		lp = lp->next;
	return lp;
}

LINE *
newline_after(lp, text)
	LINE *lp;
	char *text;
{
	register LINE *np;

	if (nlines >= MAXLINES)
		return NULL;
	np = (LINE *)malloc(sizeof(LINE));
	strncpy(np->text, text, MAXLINE - 1);
	np->text[MAXLINE - 1] = '\0';
	np->mark = 0;
	np->prev = lp;
	np->next = lp->next;
	lp->next->prev = np;
	lp->next = np;
	nlines++;
	return np;
}

static
dellines(from, to)
	int from, to;
{
	register LINE *lp, *np;
	int n;

	lp = getline_n(from);
	for (n = from; n <= to; n++) {
		np = lp->next;
		lp->prev->next = lp->next;
		lp->next->prev = lp->prev;
		free(lp);
		lp = np;
		nlines--;
	}
	dot = from > nlines ? nlines : from;
}

/* one address at cp: number, ., $, 'x (mark), with + and - offsets; -1 none, -2 bad */
getaddr()
{
	int a, n, sign;
	register LINE *lp;

	cp += strspn(cp, " ");
	if (*cp >= '0' && *cp <= '9') {
		a = (int)strtol(cp, &cp, 10);
	} else if (*cp == '.') {
		a = dot;
		cp++;
	} else if (*cp == '$') {
		a = nlines;
		cp++;
	} else if (*cp == '\'') {
		cp++;
		for (a = 1, lp = head.next; lp != &head; lp = lp->next, a++)
			if (lp->mark == *cp)
				break;
		if (lp == &head)
			return -2;
		cp++;
	} else if (*cp == '+' || *cp == '-')
		a = dot;
	else
		return -1;
	while (*cp == '+' || *cp == '-') {
		sign = *cp++ == '+' ? 1 : -1;
		n = (*cp >= '0' && *cp <= '9') ? (int)strtol(cp, &cp, 10) : 1;
		a += sign * n;
	}
	return a;
}

/* s/old/new/ on one line: & in new stands for old; NULL when old is not there */
char *
subst(text, old, new)
	char *text, *old, *new;
{
	static char out[MAXLINE];
	char *at, *o, *n;

	at = strstr(text, old);
	if (at == NULL || *old == '\0')
		return NULL;
	o = out;
	for (n = text; n < at && o < out + MAXLINE - 1; n++)
		*o++ = *n;
	for (n = new; *n && o < out + MAXLINE - 1; n++) {
		if (*n == '&') {
			char *s;
			for (s = old; *s && o < out + MAXLINE - 1; s++)
				*o++ = *s;
		} else
			*o++ = *n;
	}
	for (n = at + strlen(old); *n && o < out + MAXLINE - 1; n++)
		*o++ = *n;
	*o = '\0';
	return out;
}

static
readtext(after)
	int after;
{
	char buf[MAXLINE];
	LINE *lp = getline_n(after);

	while (fgets(buf, sizeof buf, stdin) != NULL) {
		buf[strcspn(buf, "\n")] = '\0';
		if (strcmp(buf, ".") == 0)
			break;
		if ((lp = newline_after(lp, buf)) == NULL)
			return C_FULL;
		dot = ++after;
	}
	return C_OK;
}

docmd(line)
	char *line;
{
	int a1, a2, n, i, c;
	char *p, *q, *r, *s;
	register LINE *lp;

	cp = line;
	a1 = a2 = getaddr();
	if (a1 == -2)
		goto badaddr;
	cp += strspn(cp, " ");
	if (*cp == ',') {
		cp++;
		a2 = getaddr();
		if (a1 == -1)
			a1 = 1;
		if (a2 == -1)
			a2 = nlines;
		if (a2 == -2)
			goto badaddr;
	}
	c = *cp ? *cp++ : 'p';
	if ((p = strchr(cmdchars, c)) == NULL || c == '\0')
		return C_UNKNOWN;
	n = naddrs[p - cmdchars];
	if (a1 == -1)
		a1 = a2 = (c == 'a' && nlines == 0) ? 0 : dot;
	if (n == 0 && a1 != dot)
		goto badaddr;
	if (a1 > a2 || a1 < (c == 'a' ? 0 : 1) || a2 > nlines)
		goto badaddr;
	switch (c) {
	case 'a':
		return readtext(a1);
	case 'p':
	case 'n':
		for (i = a1, lp = getline_n(a1); i <= a2; i++, lp = lp->next)
			if (c == 'n')
				printf("%d\t%s\n", i, lp->text);
			else
				printf("%s\n", lp->text);
		dot = a2;
		return C_OK;
	case 'd':
		dellines(a1, a2);
		return C_OK;
	case 'j':
		if (a1 == a2)
			return C_OK;
		lp = getline_n(a1);
		for (i = a1; i < a2; i++) {
			q = lp->text + strlen(lp->text);
			for (r = lp->next->text; *r && q < lp->text + MAXLINE - 1; )
				*q++ = *r++;
			*q = '\0';
			dellines(a1 + 1, a1 + 1);
		}
		dot = a1;
		return C_OK;
	case 'm':
		getline_n(a1)->mark = *cp ? *cp : 'a';
		return C_OK;
	case 'c':
		dellines(a1, a2);
		return readtext(a1 - 1);
	case '=':
		printf("%d\n", a1 == -1 ? nlines : a1);
		return C_OK;
	case 'q':
		return C_QUIT;
	case 's':
		if (*cp++ != '/')
			return C_UNKNOWN;
		q = cp;
		if ((r = strchr(q, '/')) == NULL)
			return C_UNKNOWN;
		*r++ = '\0';
		if ((s = strchr(r, '/')) != NULL)
			*s = '\0';
		n = 0;
		for (i = a1, lp = getline_n(a1); i <= a2; i++, lp = lp->next)
			if ((p = subst(lp->text, q, r)) != NULL) {
				strcpy(lp->text, p);
				dot = i;
				n++;
			}
		return n ? C_OK : C_NOMATCH;
	}
	return C_UNKNOWN;
badaddr:
	return C_ADDR;
}

main(argc, argv)
	int argc;
	char **argv;
{
	char line[MAXLINE];
	int r;

	if (argc > 1 && strcmp(argv[1], "-s") == 0)
		sflag = 1;
	head.next = head.prev = &head;
	while (fgets(line, sizeof line, stdin) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		r = docmd(line);
		if (r == C_QUIT)
			goto quit;
		if (r != C_OK) {
			nerr++;
			if (sflag)
				printf("?\n");
			else
				printf("? %s\n", cmdmsg[r]);
		}
	}
quit:
	printf("%d line(s), %d error(s)\n", nlines, nerr);
	while (nlines > 0)
		dellines(1, 1);
	return nerr ? 1 : 0;
}
