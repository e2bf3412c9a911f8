/*
 * puzzles.h - the recursive puzzles every old C book had: eight queens,
 * the towers of Hanoi, permutations in lexicographic order, and the
 * knight's moves table for a reachability count.
 */

#define MAXQ		10
#define MAXDISKS	20
#define MAXPERM		8

/* the peg names, and the knight's eight moves */
static char pegname[] = "ABC";
static int kdr[] = { -2, -2, -1, -1, 1, 1, 2, 2 };
static int kdc[] = { -1, 1, -2, 2, -2, 2, -1, 1 };

/* commands and the routine names for the trace */
static char *puzzle[] = { "queens", "hanoi", "perm", "knight", 0 };

typedef struct board {
	int n;
	int col[MAXQ];		/* col[r]: the queen's column in row r */
	int solutions;
	int first[MAXQ];
	int tried;
} BOARD;

extern long hanoi();
int place();
int nextperm();
int knight();
