/*
 * mat_ops.h - small integer matrices: read, add, multiply, transpose,
 * power, and the determinant by fraction-free elimination (Bareiss),
 * with every product checked for overflow as careful old code did.
 */

#define MAXN		8
#define NMATS		4

typedef struct matrix {
	int rows, cols;
	long a[MAXN][MAXN];
} MATRIX;

/* error codes and their messages */
#define M_OK		0
#define M_SHAPE		1
#define M_SIZE		2
#define M_OVER		3
#define M_NAME		4
#define M_READ		5

static char *merr[] = {
	"ok", "shapes do not fit", "too large", "overflow", "no such matrix", "bad input",
};

/* the identity's diagonal and the two permutation signs */
static long unit[] = { 1 };
static int sgn[] = { 1, -1 };

#define LIMIT		1000000000L
#define TOOBIG(x)	((x) > LIMIT || (x) < -LIMIT)

extern MATRIX *slot();
extern long det();
int mmul();
int madd();
int readmat();
