// Classic table-driven scanner: K&R definitions with implicit int, a state transition table and an accepting-state table in the header, char parameters promoted, values computed per base, a suffix check, gotos for the reject path.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=num_dfa.1.in
// RUN: args=-t stdin="0x1F 017 1e+3\n"
// RUN: stdin=""
// RUN: stdin="0x 08 1e .e5 12ul 3.14.15\n"
// RUN: args=-s stdin=num_dfa.1.in
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "num_dfa.h"

static int tflag, sflag;
static int counts[NSTATE];
static int nrejected;

charclass(c)
	char c;
{
	if (c == '0')
		return K_ZERO;
	if (c >= '1' && c <= '7')
		return K_OCT;
	if (c == '8' || c == '9')
		return K_DEC;
	if (c == 'x' || c == 'X')
		return K_X;
	if (c == 'e' || c == 'E')
		return K_E;
	if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
		return K_HEXL;
	if (c == '.')
		return K_DOT;
	if (c == '+' || c == '-')
		return K_SIGN;
	if (c == 'u' || c == 'U' || c == 'l' || c == 'L')
		return K_SUFF;
	return K_OTHER;
}

/* runs the automaton over s; the final state */
run(s)
	register char *s;
{
	register int st = S_START;

	for (; *s; s++) {
		st = next_state[st][charclass(*s)];
		if (tflag)
			printf("  %c -> %d\n", *s, st);
		if (st == S_ERR)
			break;
	}
	return st;
}

/* the suffix of an integer literal: at most one u and one l or ll */
static
goodsuffix(s)
	char *s;
{
	int u = 0, l = 0;
	char *p;

	for (p = s; *p; p++)
		if (*p == 'u' || *p == 'U')
			u++;
		else if (*p == 'l' || *p == 'L') {
			if (l && p[-1] != *p)
				return 0;	/* lL is not a suffix */
			l++;
		}
	return u <= 1 && l <= 2;
}

char *
classify(tok, value)
	char *tok;
	double *value;
{
	int st = run(tok);
	char *kind, *end;
	unsigned long v;

	if (st == S_ERR || accepts[st] == 0)
		goto reject;
	kind = accepts[st];
	if (st == S_SUFF) {
		end = tok + strcspn(tok, "uUlL");
		if (!goodsuffix(end))
			goto reject;
		/* the number before the suffix says the base */
		if (tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'))
			kind = "hex+suffix";
		else if (tok[0] == '0' && end > tok + 1)
			kind = "octal+suffix";
		else
			kind = "decimal+suffix";
	}
	counts[st]++;
	if (st == S_FRAC || st == S_EXPD)
		*value = strtod(tok, NULL);
	else {
		v = strtoul(tok, NULL, 0);
		*value = (double)v;
	}
	return kind;
reject:
	nrejected++;
	return NULL;
}

main(argc, argv)
	int argc;
	char **argv;
{
	char line[256], *tok, *kind;
	double v;
	register int i;
	int ntok = 0;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "-t") == 0)
			tflag = 1;
		else if (strcmp(argv[i], "-s") == 0)
			sflag = 1;
	while (fgets(line, sizeof line, stdin) != NULL)
		for (tok = strtok(line, " \t\n,"); tok != NULL; tok = strtok(NULL, " \t\n,")) {
			ntok++;
			kind = classify(tok, &v);
			if (sflag)
				continue;
			if (kind == NULL)
				printf("%-12s rejected\n", tok);
			else
				printf("%-12s %-15s %.6g\n", tok, kind, v);
		}
	printf("%d token(s), %d rejected;", ntok, nrejected);
	for (i = 0; i < NSTATE; i++)
		if (counts[i])
			printf(" %s=%d", i == S_SUFF ? "suffixed" : accepts[i], counts[i]);
	putchar('\n');
	return nrejected > 0;
}
