/*
 * kv_store.h - a key/value store kept in a binary search tree.
 *
 * Keys and values are copied into storage from malloc; a node owns
 * both.  Deleting a node with two children moves its in-order
 * successor into its place.
 */

#define LINESIZE	128
#define MAXKEY		24

/* error codes: indexes into errtab[] */
#define E_OK		0
#define E_NOKEY		1
#define E_CMD		2
#define E_ARGS		3
#define E_LONG		4
#define E_EMPTY		5
#define E_NOMEM		6

/* command codes */
#define C_SET		0
#define C_GET		1
#define C_DEL		2
#define C_DUMP		3
#define C_STATS		4
#define C_RANGE		5
#define C_TREE		6
#define C_CLEAR		7

#define STRLESS(a, b)	(strcmp((a), (b)) < 0)
#define MAX(a, b)	((a) > (b) ? (a) : (b))

typedef struct node {
	char	*key;
	char	*val;
	struct node *left, *right;
} Node;

typedef struct cmd {
	char	*name;
	short	code;
	short	nargs;		/* words after the command; -1: key and rest of line */
} Cmd;

typedef struct counts {
	int	nodes;
	int	leaves;
	long	depthsum;
} Counts;

static Cmd cmdtab[] = {
	{ "set",   C_SET,   -1 },
	{ "get",   C_GET,   1 },
	{ "del",   C_DEL,   1 },
	{ "dump",  C_DUMP,  0 },
	{ "stats", C_STATS, 0 },
	{ "range", C_RANGE, 2 },
	{ "tree",  C_TREE,  0 },
	{ "clear", C_CLEAR, 0 },
	{ 0, 0, 0 }
};

static char *errtab[] = {
	"ok",
	"no such key",
	"unknown command",
	"wrong number of arguments",
	"key too long",
	"store is empty",
	"out of memory",
};

extern Node *root;
extern Node *lookup();
extern Node **findp();
extern char *field();
int delete();
int height();
int walk();
int freetree();
