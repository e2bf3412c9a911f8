// Classic pattern substitution filter after Software Tools: K&R definitions with implicit int, a pattern compiled into an int array of codes with operand tables in the header, pointer-to-pointer scanning of the pattern, recursive backtracking closure, a macro hiding a goto for overflow, a switch over codes.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: args=[a-z][a-z]* <&> stdin=replace_pat.1.in
// RUN: args=%[0-9][0-9]* # stdin=replace_pat.1.in
// RUN: args=a?c "[&&]" stdin="abc aXc ac a\nc abcabc\n"
// RUN: args=$ ";@t!" stdin=replace_pat.2.in
// RUN: args=-d "%x[^a-c@]-]*?@n*$"
// RUN: args=[a- X stdin="abc\n"
// RUN: args=only
// RUN: args=" *" "_" stdin=replace_pat.2.in
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replace_pat.h"

static int pat[MAXPAT];
static int sub[MAXPAT];

#define ADD(a, j, c)	if ((j) >= MAXPAT) goto overflow; else (a)[(j)++] = (c)

/* the character at *pp, stepping over an escape */
char
esc(pp)
	char **pp;
{
	register char *p = *pp;
	register struct esctab *e;

	if (*p != ESCAPE || p[1] == '\0')
		return *p;
	*pp = ++p;
	for (e = esctab; e->from != 0; e++)
		if (e->from == *p)
			return e->to;
	return *p;
}

/* a class from *pp (at the '['); leaves *pp at the ']' */
getccl(pp, jp)
	char **pp;
	int *jp;
{
	char *p = *pp + 1;
	int j = *jp, start, c, prev = -1;

	if (*p == '^') {
		ADD(pat, j, P_NCCL);
		p++;
	} else
		ADD(pat, j, P_CCL);
	start = j;
	ADD(pat, j, 0);
	for (; *p != ']'; p++) {
		if (*p == '\0')
			return -1;
		if (*p == '-' && prev >= 0 && p[1] != ']' && p[1] != '\0') {
			p++;
			c = (unsigned char)esc(&p);
			if (c < prev)
				return -1;
			while (++prev <= c)
				ADD(pat, j, prev);
			prev = -1;
			continue;
		}
		prev = (unsigned char)esc(&p);
		ADD(pat, j, prev);
	}
	pat[start] = j - start - 1;
	*pp = p;
	*jp = j;
	return j;
overflow:
	return -1;
}

makepat(arg)
	char *arg;
{
	char *p;
	int j = 0, lastj = -1, lj;

	for (p = arg; *p != '\0'; p++) {
		lj = j;
		if (*p == '?')
			ADD(pat, j, P_ANY);
		else if (*p == '%' && p == arg)
			ADD(pat, j, P_BOL);
		else if (*p == '$' && p[1] == '\0')
			ADD(pat, j, P_EOL);
		else if (*p == '[') {
			if (getccl(&p, &j) < 0)
				goto bad;
		} else if (*p == '*' && p > arg) {
			if (lastj < 0 || pat[lastj] == P_BOL
			    || pat[lastj] == P_EOL || pat[lastj] == P_CLOSURE)
				goto bad;
			if (j >= MAXPAT)
				goto overflow;
			memmove(&pat[lastj + 1], &pat[lastj], (j - lastj) * sizeof pat[0]);
			pat[lastj] = P_CLOSURE;
			j++;
			lj = lastj;
		} else {
			ADD(pat, j, P_LIT);
			ADD(pat, j, (unsigned char)esc(&p));
		}
		lastj = lj;
	}
	ADD(pat, j, P_END);
	return j;
overflow:
bad:
	return -1;
}

makesub(arg)
	char *arg;
{
	char *p;
	register j = 0;

	for (p = arg; *p != '\0'; p++)
		if (*p == '&')
			ADD(sub, j, S_DITTO);
		else
			ADD(sub, j, (unsigned char)esc(&p));
	ADD(sub, j, S_END);
	return j;
overflow:
	return -1;
}

patsize(pat, j)
	int *pat;
	int j;
{
	if (ISCLASS(pat[j]))
		return pat[j + 1] + 2;
	return codelen[pat[j]];
}

/* is c among the n characters at set? */
locate(c, set, n)
	char c;
	int *set, n;
{
	register int *s;

	for (s = set + n - 1; s >= set; s--)
		if (*s == (unsigned char)c)
			return 1;
	return 0;
}

/* one element at lin[*ip]; advances *ip over what it matched */
omatch(lin, ip, pat, j)
	char *lin;
	int *ip, *pat, j;
{
	register char c = lin[*ip];
	int bump = -1;

	switch (pat[j]) {
	case P_LIT:
		if (c != '\0' && (unsigned char)c == pat[j + 1])
			bump = 1;
		break;
	case P_BOL:
		if (*ip == 0)
			bump = 0;
		break;
	case P_EOL:
		if (c == '\n' || (c == '\0' && (*ip == 0 || lin[*ip - 1] != '\n')))
			bump = 0;
		break;
	case P_ANY:
		if (c != '\n' && c != '\0')
			bump = 1;
		break;
	case P_CCL:
		if (c != '\0' && locate(c, pat + j + 2, pat[j + 1]))
			bump = 1;
		break;
	case P_NCCL:
		if (c != '\0' && c != '\n' && !locate(c, pat + j + 2, pat[j + 1]))
			bump = 1;
		break;
	default:
		fflush(stdout);
		fprintf(stderr, "bad code %d\n", pat[j]);
		abort();
	}
	if (bump < 0)
		return 0;
	*ip += bump;
	return 1;
}

/* where a match of pat[j..] starting at lin[off] ends, or -1 */
amatch(lin, off, pat, j)
	char *lin;
	int off, *pat, j;
{
	int i, k, m;

	for (; pat[j] != P_END; j += patsize(pat, j)) {
		if (pat[j] == P_CLOSURE) {
			j++;
			for (i = off; lin[i] != '\0'; )
				if (!omatch(lin, &i, pat, j))
					break;
			/* the longest run first, then shorter ones */
			for (k = i; k >= off; k--)
				if ((m = amatch(lin, k, pat, j + patsize(pat, j))) >= 0)
					return m;
			return -1;
		}
		if (!omatch(lin, &off, pat, j))
			return -1;
	}
	return off;
}

putsub(lin, s1, s2, sub)
	char *lin;
	int s1, s2, *sub;
{
	register int *s;
	register char *p;

	for (s = sub; *s != S_END; s++)
		if (*s == S_DITTO)
			for (p = lin + s1; p < lin + s2; p++)
				putchar(*p);
		else
			putchar(*s);
}

change(lin)
	char *lin;
{
	int i, m, lastm = -1, n = 0;

	for (i = 0; lin[i] != '\0'; ) {
		m = amatch(lin, i, pat, 0);
		if (m >= 0 && m != lastm) {
			putsub(lin, i, m, sub);
			lastm = m;
			n++;
		}
		if (m < 0 || m == i)
			putchar(lin[i++]);
		else
			i = m;
	}
	/* the last line may lack its newline: try the very end too */
	if (i > 0 && lin[i - 1] != '\n'
	    && (m = amatch(lin, i, pat, 0)) >= 0 && m != lastm) {
		putsub(lin, i, m, sub);
		n++;
	}
	return n;
}

dump(n)
	int n;
{
	register j, k;

	for (j = 0; j < n; j += patsize(pat, j)) {
		printf("%3d %s", j, codename[pat[j]]);
		if (pat[j] == P_LIT)
			printf(" %d", pat[j + 1]);
		else if (ISCLASS(pat[j])) {
			printf(" %d:", pat[j + 1]);
			for (k = 0; k < pat[j + 1]; k++)
				printf(" %d", pat[j + 2 + k]);
		}
		putchar('\n');
		if (pat[j] == P_END)
			break;
	}
}

main(argc, argv)
	int argc;
	char **argv;
{
	char lin[MAXLINE];
	int n, lines = 0, changes = 0;

	if (argc == 3 && strcmp(argv[1], "-d") == 0) {
		if ((n = makepat(argv[2])) < 0)
			goto badpat;
		dump(n);
		return 0;
	}
	if (argc != 3) {
		printf("usage: replace_pat pattern replacement | -d pattern\n");
		return 1;
	}
	if (makepat(argv[1]) < 0)
		goto badpat;
	if (makesub(argv[2]) < 0) {
		printf("replacement too long\n");
		return 2;
	}
	while (fgets(lin, sizeof lin, stdin) != NULL) {
		lines++;
		changes += change(lin);
	}
	fflush(stdout);
	fprintf(stderr, "%d lines, %d changes\n", lines, changes);
	return 0;
badpat:
	printf("illegal pattern\n");
	return 2;
}
