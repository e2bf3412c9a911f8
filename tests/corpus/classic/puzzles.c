// Classic recursive puzzles: K&R definitions with implicit int, n-queens by backtracking over a struct, the towers of Hanoi with a move limit, permutations in lexicographic order, a breadth-first knight's tour count with move tables in the header, goto out of nested loops.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=puzzles.1.in
// RUN: args=-q stdin=puzzles.1.in
// RUN: stdin="queens 9\nhanoi 14\n"
// RUN: stdin=""
// RUN: stdin="queens 11\nhanoi -1\nperm 9\nknight 0 0 9\nfly 1\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "puzzles.h"

static int quiet;
static long moves_shown;

static
safe(b, r, c)
	BOARD *b;
	int r, c;
{
	register int i;

	for (i = 0; i < r; i++)
		if (b->col[i] == c || abs(b->col[i] - c) == r - i)
			return 0;
	return 1;
}

/* places queens from row r on; counts the solutions */
place(b, r)
	BOARD *b;
	int r;
{
	register int c;

	if (r == b->n) {
		if (b->solutions++ == 0)
			memcpy(b->first, b->col, sizeof b->col);
		return;
	}
	for (c = 0; c < b->n; c++) {
		b->tried++;
		if (safe(b, r, c)) {
			b->col[r] = c;
			place(b, r + 1);
		}
	}
}

/* moves n disks from peg a to c; shows at most 10 moves; the number of moves */
long
hanoi(n, a, b, c)
	int n;
	char a, b, c;
{
	long m;

	if (n == 0)
		return 0;
	m = hanoi(n - 1, a, c, b);
	if (!quiet && moves_shown < 10) {
		printf("  disk %d %c -> %c\n", n, a, c);
		moves_shown++;
	}
	return m + 1 + hanoi(n - 1, b, a, c);
}

/* the next permutation of p[0..n) in lexicographic order; 0 after the last */
nextperm(p, n)
	int *p, n;
{
	register int i, j, t;

	for (i = n - 2; i >= 0 && p[i] >= p[i + 1]; i--)
		;
	if (i < 0)
		return 0;
	for (j = n - 1; p[j] <= p[i]; j--)
		;
	t = p[i], p[i] = p[j], p[j] = t;
	for (i++, j = n - 1; i < j; i++, j--)
		t = p[i], p[i] = p[j], p[j] = t;
	return 1;
}

/* the squares a knight reaches from (r, c) on an n by n board, and in how many moves
   the farthest is reached */
knight(r, c, n, far)
	int r, c, n;
	int *far;
{
	static int dist[MAXQ][MAXQ];
	int qr[MAXQ * MAXQ], qc[MAXQ * MAXQ];
	register int head = 0, tail = 0, k;
	int seen = 0, nr, nc;

	for (nr = 0; nr < n; nr++)
		for (nc = 0; nc < n; nc++)
			dist[nr][nc] = -1;
	dist[r][c] = 0;
	qr[tail] = r;
	qc[tail++] = c;
	*far = 0;
	while (head < tail) {
		r = qr[head];
		c = qc[head++];
		seen++;
		if (dist[r][c] > *far)
			*far = dist[r][c];
		for (k = 0; k < 8; k++) {
			nr = r + kdr[k];
			nc = c + kdc[k];
			if (nr < 0 || nc < 0 || nr >= n || nc >= n || dist[nr][nc] >= 0)
				continue;
			dist[nr][nc] = dist[r][c] + 1;
			qr[tail] = nr;
			qc[tail++] = nc;
		}
	}
	return seen;
}

main(argc, argv)
	int argc;
	char **argv;
{
	char name[16];
	int a, b2, c, n, i, k, far, p[MAXPERM], bad = 0;
	BOARD board;
	long m;

	quiet = argc > 1 && strcmp(argv[1], "-q") == 0;
	while (scanf("%15s %d", name, &a) == 2) {
		for (k = 0; puzzle[k] != 0; k++)
			if (strcmp(puzzle[k], name) == 0)
				break;
		switch (k) {
		case 0:
			if (a < 1 || a > MAXQ)
				goto bad;
			memset(&board, 0, sizeof board);
			board.n = a;
			place(&board, 0);
			printf("queens %d: %d solution(s), %d square(s) tried", a, board.solutions, board.tried);
			if (board.solutions > 0 && !quiet) {
				printf(", first:");
				for (i = 0; i < a; i++)
					printf(" %c%d", 'a' + board.first[i], i + 1);
			}
			putchar('\n');
			break;
		case 1:
			if (a < 0 || a > MAXDISKS)
				goto bad;
			moves_shown = 0;
			m = hanoi(a, pegname[0], pegname[1], pegname[2]);
			printf("hanoi %d: %ld move(s)%s\n", a, m, m > 10 && !quiet ? " (first 10 shown)" : "");
			break;
		case 2:
			if (a < 1 || a > MAXPERM)
				goto bad;
			for (i = 0; i < a; i++)
				p[i] = i + 1;
			n = 0;
			do {
				if (!quiet && n < 6) {
					for (i = 0; i < a; i++)
						putchar('0' + p[i]);
					putchar(n < 5 ? ' ' : '\n');
				}
				n++;
			} while (nextperm(p, a));
			if (!quiet && n < 6)
				putchar('\n');
			printf("perm %d: %d permutation(s)\n", a, n);
			break;
		case 3:
			if (scanf("%d %d", &b2, &c) != 2 || c < 1 || c > MAXQ)
				goto bad;
			if (a < 0 || b2 < 0 || a >= c || b2 >= c)
				goto bad;
			n = knight(a, b2, c, &far);
			printf("knight from %c%d on %dx%d: %d square(s), farthest in %d move(s)\n",
			    'a' + b2, a + 1, c, c, n, far);
			break;
		default:
		bad:
			printf("bad: %s %d\n", name, a);
			bad++;
		}
	}
	printf("%d bad\n", bad);
	return bad ? 1 : 0;
}
