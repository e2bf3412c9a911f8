/*
 * life_grid.h - Conway's game of life on a small torus.
 *
 * The board wraps around at the edges.  Three boards are kept, the
 * current one and the two before it, so that still lifes and
 * period-2 oscillators are noticed; the boards are swapped by
 * rotating pointers, never copied.
 */

#define MAXR		24
#define MAXC		40
#define LINESIZE	(MAXC + 8)
#define MAXGEN		500

/* why a run ended: indexes into endings[] */
#define END_DONE	0
#define END_STILL	1
#define END_PERIOD2	2
#define END_DEAD	3

/* input errors: indexes into errors[] */
#define ER_HEADER	0
#define ER_SIZE		1
#define ER_CHAR		2
#define ER_LONG		3
#define ER_SHORT	4
#define ER_RULE		5
#define ER_USAGE	6

#define NNEIGH		8
#define WRAP(v, n)	(((v) + (n)) % (n))
#define ALIVE(c)	((c) != '\0' && strchr(livechars, (c)) != NULL)
#define DEAD(c)		((c) != '\0' && strchr(deadchars, (c)) != NULL)

typedef char Row[MAXC];

typedef struct census {
	int	alive;
	int	births;
	int	deaths;
	int	top, left, bottom, right;	/* bounding box */
} Census;

/* neighbour offsets, clockwise from the north-west */
static int drow[NNEIGH] = { -1, -1, -1,  0,  1,  1,  1,  0 };
static int dcol[NNEIGH] = { -1,  0,  1,  1,  1,  0, -1, -1 };

/* the rule: born[n] and survive[n] for n live neighbours; B3/S23 */
static char born[9] = { 0, 0, 0, 1, 0, 0, 0, 0, 0 };
static char survive[9] = { 0, 0, 1, 1, 0, 0, 0, 0, 0 };

static char livechars[] = "#Oo*@";
static char deadchars[] = ".-_ ";
static char showchars[] = ".#";

static char *endings[] = {
	"ran all generations",
	"still life",
	"period-2 oscillator",
	"died out",
};

static char *errors[] = {
	"first line must be: rows cols generations",
	"size out of range",
	"bad cell character",
	"row too long",
	"too few rows",
	"rule must look like B3/S23",
	"usage: life_grid [-r rule] [every]",
};

extern Row *cur, *old, *older;
extern int rows, cols;
int step();
int same();
int census();
int readgrid();
int parserule();
