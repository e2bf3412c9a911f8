// Classic hand-written tokenizer: K&R definitions with implicit int, a character class table, a sorted keyword table and an operator table in the header, a pushback stack, binary search, constant values computed by hand, one big scanning function whose error exits are gotos (some hidden in a macro).
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type -Wno-sign-compare
// RUN: stdin=print_tok.1.in
// RUN: args=-s stdin=print_tok.1.in
// RUN: args=-v stdin=print_tok.2.in
// RUN: stdin=""
// RUN: stdin="x = 0x1F + 3.5e-2 - .5 /* c ** */ y<<=017;a...b\n"
// RUN: args=-v stdin="int @ x;\n"
// RUN: stdin="0x 12abc 09\n"
// RUN: args=-q
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "print_tok.h"

static int line = 1, col, lastcol;
static int pushbuf[NPUSH], npush;
static long kindcount[NKINDS];
static int kwcount[NKEYWORDS];
static char errbuf[80];

/* the next character, from the pushback stack first */
nextc()
{
	register c;

	if (npush > 0)
		c = pushbuf[--npush];
	else
		c = getchar();
	if (c == '\n') {
		line++;
		lastcol = col;
		col = 0;
	} else if (c != EOF)
		col++;
	return c;
}

unget(c)
	int c;
{
	if (c == EOF)
		return;
	if (npush >= NPUSH) {
		fflush(stdout);
		fprintf(stderr, "pushback overflow\n");
		abort();
	}
	pushbuf[npush++] = c;
	if (c == '\n') {
		line--;
		col = lastcol;
	} else
		col--;
}

char *
kwlookup(s)
	char *s;
{
	register lo = 0, hi = NKEYWORDS - 1, mid, r;

	while (lo <= hi) {
		mid = (lo + hi) / 2;
		r = strcmp(s, keywords[mid]);
		if (r == 0) {
			kwcount[mid]++;
			return keywords[mid];
		}
		if (r < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return NULL;
}

digitval(c)
	char c;
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

escval(c)
	int c;
{
	switch (c) {
	case 'n':	return '\n';
	case 't':	return '\t';
	case 'r':	return '\r';
	case 'a':	return 7;
	case '0':	return 0;
	default:	return c;	/* \\ \' \" and the rest */
	}
}

#define PUT(t, c)	if ((t)->len >= MAXTOK) goto toolong; else (t)->text[(t)->len++] = (c)

gettoken(t)
	register Token *t;
{
	register c;
	int c2, q = 0, isfloat = 0, d;
	char **op;

	t->len = 0;
	t->nchars = 0;
	t->ival = 0;
again:
	c = nextc();
	while (CLASS(c) == C_SPACE || CLASS(c) == C_NL)
		c = nextc();
	t->line = line;
	t->col = col;
	if (c == EOF) {
		t->kind = T_EOF;
		goto done;
	}
	switch (CLASS(c)) {
	case C_LETTER:
		while (ISIDCH(c)) {
			PUT(t, c);
			c = nextc();
		}
		unget(c);
		t->text[t->len] = '\0';
		t->kind = kwlookup(t->text) != NULL ? T_KEYWORD : T_IDENT;
		break;
	case C_DIGIT:
		goto number;
	case C_QUOTE:
		q = c;
		PUT(t, c);
		for (;;) {
			c = nextc();
			if (c == EOF || c == '\n')
				goto unterminated;
			PUT(t, c);
			if (c == q)
				break;
			if (c == '\\') {
				c = nextc();
				if (c == EOF || c == '\n')
					goto unterminated;
				PUT(t, c);
				c = escval(c);
			}
			t->ival = (unsigned char)c;
			t->nchars++;
		}
		if (q == '\'' && t->nchars != 1) {
			sprintf(errbuf, "char constant with %d characters", t->nchars);
			goto error;
		}
		t->kind = q == '"' ? T_STRING : T_CHAR;
		break;
	case C_OP:
		if (c == '/') {
			c = nextc();
			if (c == '*') {
				for (;;) {
					c = nextc();
					if (c == '*') {
						while ((c = nextc()) == '*')
							;
						if (c == '/')
							goto again;
					}
					if (c == EOF) {
						strcpy(errbuf, "comment not closed");
						goto error;
					}
				}
			}
			unget(c);
			c = '/';
		}
		PUT(t, c);
		c2 = nextc();
		for (op = ops2; *op != NULL; op++)
			if ((*op)[0] == c && (*op)[1] == c2)
				break;
		if (*op == NULL) {
			unget(c2);
		} else {
			PUT(t, c2);
			if ((c == '<' || c == '>') && c2 == c) {
				c2 = nextc();
				if (c2 == '=')
					PUT(t, c2);
				else
					unget(c2);
			}
		}
		t->kind = T_OP;
		break;
	case C_PUNCT:
		if (c == '.') {
			c2 = nextc();
			unget(c2);
			if (CLASS(c2) == C_DIGIT)
				goto number;
		}
		PUT(t, c);
		t->kind = T_PUNCT;
		break;
	case C_HASH:
		if (t->col != 1)
			goto badchar;
		while (c != '\n' && c != EOF) {
			PUT(t, c);
			c = nextc();
		}
		unget(c);
		t->kind = T_DIRECT;
		break;
	default:
		goto badchar;
	}
done:
	t->text[t->len] = '\0';
	kindcount[t->kind]++;
	return t->kind;

number:
	if (c == '0') {
		PUT(t, c);
		c = nextc();
		if (c == 'x' || c == 'X') {
			PUT(t, c);
			c = nextc();
			if (c == EOF || digitval(c) < 0)
				goto badnum;
			while (c != EOF && (d = digitval(c)) >= 0) {
				PUT(t, c);
				t->ival = t->ival * 16 + d;
				c = nextc();
			}
			goto suffix;
		}
		while (CLASS(c) == C_DIGIT) {
			PUT(t, c);
			if (c >= '8')
				goto badnum;
			t->ival = t->ival * 8 + (c - '0');
			c = nextc();
		}
		if (c == '.' || c == 'e' || c == 'E')
			goto fraction;
		goto suffix;
	}
	while (CLASS(c) == C_DIGIT) {
		PUT(t, c);
		t->ival = t->ival * 10 + (c - '0');
		c = nextc();
	}
	if (c != '.' && c != 'e' && c != 'E')
		goto suffix;
fraction:
	isfloat = 1;
	if (c == '.') {
		PUT(t, c);
		c = nextc();
		while (CLASS(c) == C_DIGIT) {
			PUT(t, c);
			c = nextc();
		}
	}
	if (c == 'e' || c == 'E') {
		PUT(t, c);
		c = nextc();
		if (c == '+' || c == '-') {
			PUT(t, c);
			c = nextc();
		}
		if (CLASS(c) != C_DIGIT)
			goto badnum;
		while (CLASS(c) == C_DIGIT) {
			PUT(t, c);
			c = nextc();
		}
	}
suffix:
	while (c == 'u' || c == 'U' || c == 'l' || c == 'L'
	    || (isfloat && (c == 'f' || c == 'F'))) {
		PUT(t, c);
		c = nextc();
	}
	if (ISIDCH(c)) {
		PUT(t, c);
		goto badnum;
	}
	unget(c);
	t->kind = isfloat ? T_FLOAT : T_INT;
	goto done;

badnum:
	t->text[t->len] = '\0';
	sprintf(errbuf, "malformed number '%s'", t->text);
	goto error;
toolong:
	strcpy(errbuf, "token too long");
	goto error;
unterminated:
	sprintf(errbuf, "unterminated %s", q == '"' ? "string" : "char constant");
	goto error;
badchar:
	sprintf(errbuf, "unexpected character 0x%02x", c & 0xff);
error:
	t->text[t->len] = '\0';
	return T_ERROR;
}

printtok(t)
	Token *t;
{
	printf("%3d:%-3d %-9s %s", t->line, t->col, kindname[t->kind], t->text);
	switch (t->kind) {
	case T_INT:
	case T_CHAR:
		printf(" = %lu", t->ival);
		break;
	case T_FLOAT:
		printf(" = %.6g", strtod(t->text, (char **)0));
		break;
	case T_STRING:
		printf(" (%d chars)", t->nchars);
		break;
	}
	putchar('\n');
}

summary()
{
	register i;
	long total = 0;

	for (i = 1; i < NKINDS; i++) {
		total += kindcount[i];
		if (kindcount[i])
			printf("%-10s %ld\n", kindname[i], kindcount[i]);
	}
	printf("%ld tokens, %d newlines\n", total, line - 1);
	for (i = 0; i < NKEYWORDS; i++)
		if (kwcount[i])
			printf("  %s:%d", keywords[i], kwcount[i]);
	if (kindcount[T_KEYWORD])
		putchar('\n');
}

main(argc, argv)
	int argc;
	char **argv;
{
	Token tok;
	int sflag = 0, vflag = 0, k, status = 0;

	while (--argc > 0 && (*++argv)[0] == '-')
		switch ((*argv)[1]) {
		case 's':
			sflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		default:
			printf("usage: print_tok [-s] [-v] < file\n");
			return 2;
		}
	while ((k = gettoken(&tok)) != T_EOF) {
		if (k == T_ERROR) {
			printf("line %d, col %d: %s\n", tok.line, tok.col, errbuf);
			status = 1;
			goto out;
		}
		if (!sflag)
			printtok(&tok);
	}
	if (!sflag)
		printf("%3d:%-3d eof\n", tok.line, tok.col);
out:
	if (sflag || vflag)
		summary();
	exit(status);
}
