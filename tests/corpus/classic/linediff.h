/*
 * linediff.h - declarations for the line differ.
 *
 * Two texts are read from the standard input, separated by a line
 * holding only "----".  Lines are kept in one string pool; the
 * differ works on indexes into the two line arrays.
 */

#define MAXLINES	64
#define LINESIZE	128
#define POOLSIZE	8192
#define MAXHUNKS	(MAXLINES + 1)
#define SEPARATOR	"----"

/* exit status, as diff(1) has it */
#define SAME	0
#define DIFFER	1
#define TROUBLE	2

/* error codes, indexes into errmsg[] */
#define E_OK	0
#define E_NOSEP	1
#define E_MANY	2
#define E_POOL	3
#define E_LONG	4
#define E_USAGE	5

/* kinds of hunk, indexes into kindname[] */
#define H_ADD	0
#define H_DEL	1
#define H_CHG	2

#define MAX(a, b)	((a) > (b) ? (a) : (b))
#define BLANK(c)	((c) == ' ' || (c) == '\t')
#define NELEM(a)	(sizeof (a) / sizeof (a)[0])

typedef struct line {
	char	*text;		/* in the pool, NUL terminated */
	unsigned hash;
	int	len;
} Line;

typedef struct hunk {
	int	kind;
	int	a0, a1;		/* old lines [a0, a1) */
	int	b0, b1;		/* new lines [b0, b1) */
} Hunk;

static char *kindname[] = { "a", "d", "c" };
static char marks[] = { '<', '>' };
static char *textname[] = { "old", "new" };
static unsigned hashmul[] = { 31, 37, 41, 43 };
static char *errmsg[] = {
	"no error",
	"missing separator line",
	"too many lines",
	"out of string space",
	"line too long",
	"usage: linediff [-eqw]",
};

extern char *save_line();
extern unsigned hash_line();
extern Line text[2][MAXLINES];
extern int nlines[2];
extern Hunk hunks[MAXHUNKS];
extern int nhunks;
int readtexts();
int build_table();
int collect();
int print_normal();
int print_ed();
