// Classic game of life on a torus: neighbour offset and rule tables in the header, boards passed as pointers to rows and rotated, K&R parameters of pointer-to-array type, still-life / period-2 detection with goto out of nested loops.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-implicit-function-declaration -Wno-return-type
// RUN: args=1 stdin=life_grid.1.in
// RUN: args=4 stdin=life_grid.2.in
// RUN: stdin=life_grid.3.in
// RUN: args=-r B36/S23 2 stdin=life_grid.4.in
// RUN: stdin="3 3 5\n#..\n...\n..#\n"
// RUN: stdin="4 5 10\n.....\n..x..\n"
// RUN: stdin="3 6 1\n......\n##\n"
// RUN: args=-r B3/Q23 stdin="1 1 1\n.\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "life_grid.h"

static Row boards[3][MAXR];
Row *cur = boards[0], *old = boards[1], *older = boards[2];
int rows, cols;
static int gens;
static int lineno;

/*
 * step: one generation from the board from into the board to.
 * Returns the number of cells that changed.
 */
step(from, to)
char (*from)[MAXC];
char (*to)[MAXC];
{
	register i, j, k;
	int n, changed = 0;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++) {
			n = 0;
			for (k = 0; k < NNEIGH; k++)
				n += from[WRAP(i + drow[k], rows)][WRAP(j + dcol[k], cols)];
			to[i][j] = from[i][j] ? survive[n] : born[n];
			if (to[i][j] != from[i][j])
				changed++;
		}
	return changed;
}

/*
 * same: are two boards equal?
 */
same(a, b)
Row *a, *b;
{
	register i, j;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++)
			if (a[i][j] != b[i][j])
				goto differ;
	return 1;
differ:
	return 0;
}

/*
 * census: count the live cells of b, and births and deaths against
 * the board before, p; fill in the bounding box.
 */
census(b, p, cp)
Row *b, *p;
register Census *cp;
{
	register i, j;

	cp->alive = cp->births = cp->deaths = 0;
	cp->top = cp->left = MAXR + MAXC;
	cp->bottom = cp->right = -1;
	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++) {
			if (p != NULL && b[i][j] != p[i][j]) {
				if (b[i][j])
					cp->births++;
				else
					cp->deaths++;
			}
			if (!b[i][j])
				continue;
			cp->alive++;
			if (i < cp->top)
				cp->top = i;
			if (i > cp->bottom)
				cp->bottom = i;
			if (j < cp->left)
				cp->left = j;
			if (j > cp->right)
				cp->right = j;
		}
	return cp->alive;
}

static
density(what, frac)
char *what;
float frac;
{
	printf("%s %.1f%%", what, frac * 100.0);
}

static
show(gen, b, p)
int gen;
Row *b, *p;
{
	Census c;
	register char *cell;
	int i;

	census(b, p, &c);
	printf("generation %d: %d alive", gen, c.alive);
	if (p != NULL)
		printf(" (+%d -%d)", c.births, c.deaths);
	if (c.alive)
		printf(", box %dx%d at (%d,%d)", c.bottom - c.top + 1,
		    c.right - c.left + 1, c.top, c.left);
	printf(", ");
	density("density", (float) c.alive / (rows * cols));
	putchar('\n');
	for (i = 0; i < rows; i++) {
		for (cell = b[i]; cell < b[i] + cols; cell++)
			putchar(showchars[(int) *cell]);
		putchar('\n');
	}
}

/*
 * readrow: one line of the picture into row r; short lines are dead
 * to the right.  Returns an error code or -1.
 */
static
readrow(r, line)
short r;
char *line;
{
	register char *p;
	char *nl;

	if ((nl = strchr(line, '\n')) != NULL)
		*nl = '\0';
	for (p = line; *p; p++) {
		if (p - line >= cols)
			return ER_LONG;
		if (ALIVE(*p))
			cur[r][p - line] = 1;
		else if (!DEAD(*p))
			return ER_CHAR;
	}
	return -1;
}

/*
 * readgrid: the header line and the picture.  Returns -1 or an
 * error code.
 */
readgrid()
{
	char line[LINESIZE];
	int r, err;

	lineno = 1;
	if (fgets(line, sizeof line, stdin) == NULL)
		return ER_HEADER;
	if (sscanf(line, "%d %d %d", &rows, &cols, &gens) != 3)
		return ER_HEADER;
	if (rows < 1 || rows > MAXR || cols < 1 || cols > MAXC || gens < 0 || gens > MAXGEN)
		return ER_SIZE;
	for (r = 0; r < rows; r++) {
		lineno++;
		if (fgets(line, sizeof line, stdin) == NULL)
			return ER_SHORT;
		if ((err = readrow(r, line)) >= 0)
			return err;
	}
	return -1;
}

/*
 * parserule: B<digits>/S<digits> into the born and survive tables.
 */
parserule(s)
char *s;
{
	register char *p = s;

	memset(born, 0, sizeof born);
	memset(survive, 0, sizeof survive);
	if (toupper((unsigned char) *p) != 'B')
		goto bad;
	for (p++; isdigit((unsigned char) *p); p++) {
		if (*p == '9')
			goto bad;
		born[*p - '0'] = 1;
	}
	if (*p++ != '/' || toupper((unsigned char) *p) != 'S')
		goto bad;
	for (p++; isdigit((unsigned char) *p); p++) {
		if (*p == '9')
			goto bad;
		survive[*p - '0'] = 1;
	}
	if (*p != '\0')
		goto bad;
	return 1;
bad:
	return 0;
}

main(argc, argv)
int argc;
char **argv;
{
	int every = 0, gen, why, err;
	Row *t;
	Census c;

	while (--argc > 0) {
		if ((*++argv)[0] != '-') {
			if (!isdigit((unsigned char) **argv))
				goto usage;
			every = atoi(*argv);
			continue;
		}
		switch ((*argv)[1]) {
		case 'r':
			if ((*argv)[2] != '\0' || --argc == 0)
				goto usage;
			if (!parserule(*++argv)) {
				err = ER_RULE;
				goto fail;
			}
			break;
		default:
			goto usage;
		}
	}
	if ((err = readgrid()) >= 0) {
		printf("line %d: ", lineno);
		goto fail;
	}
	showrule();
	show(0, cur, (Row *) NULL);
	why = END_DONE;
	for (gen = 1; gen <= gens; gen++) {
		t = older;
		older = old;
		old = cur;
		cur = t;
		step(old, cur);
		if (same(cur, old)) {
			why = END_STILL;
			goto out;
		}
		if (gen >= 2 && same(cur, older)) {
			why = END_PERIOD2;
			goto out;
		}
		if (census(cur, (Row *) NULL, &c) == 0) {
			why = END_DEAD;
			goto out;
		}
		if (every > 0 && gen % every == 0)
			show(gen, cur, old);
	}
	gen = gens;
out:
	if (gen > 0 && (why != END_DONE || every == 0 || gen % every != 0))
		show(gen, cur, old);
	printf("%s after %d generation%s\n", endings[why], gen, gen == 1 ? "" : "s");
	return 0;
usage:
	err = ER_USAGE;
fail:
	printf("%s\n", errors[err]);
	return 1;
}

/* showrule: the rule in B/S notation; main calls it undeclared */
showrule()
{
	register n;

	printf("rule B");
	for (n = 0; n < 9; n++)
		if (born[n])
			putchar('0' + n);
	printf("/S");
	for (n = 0; n < 9; n++)
		if (survive[n])
			putchar('0' + n);
	putchar('\n');
}
