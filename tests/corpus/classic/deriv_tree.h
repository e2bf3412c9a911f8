/*
 * deriv_tree.h - expression trees read in postfix, printed in infix with
 * the fewest parentheses, evaluated, and differentiated by x.  Nodes come
 * from a fixed pool, as on machines without a dependable malloc.
 */

#define POOLSIZE	600
#define STACKSIZE	64

/* node kinds */
#define N_NUM		0
#define N_VAR		1
#define N_ADD		2
#define N_SUB		3
#define N_MUL		4
#define N_DIV		5
#define N_NEG		6

typedef struct tnode {
	int kind;
	long val;
	struct tnode *l, *r;
} TNODE;

/* per kind: operator character, precedence, whether it commutes */
static char kindch[] = "#x+-*/~";
static int kprec[] = { 9, 9, 1, 1, 2, 2, 3 };
static int commutes[] = { 0, 0, 1, 0, 1, 0, 0 };

#define ISOP(k)		((k) >= N_ADD && (k) <= N_DIV)

extern TNODE *mknode();
extern TNODE *num();
extern TNODE *deriv();
extern TNODE *simplify();
extern long evaltree();
int printtree();
