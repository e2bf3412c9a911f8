/*
 * rpn_calc.h - a small desk calculator in the manner of dc(1).
 *
 * Integers only.  The operators are kept in a table with the number
 * of operands each one needs and the routine that does the work;
 * the routines take nothing and return an error code.
 */

#define STACKSIZE	32
#define NREGS		26
#define MAXBASE		16

/* error codes: indexes into errtab[] */
#define E_OK		0
#define E_UNDER		1
#define E_FULL		2
#define E_DIVZ		3
#define E_REMZ		4
#define E_NEGEXP	5
#define E_REG		6
#define E_BASE		7
#define E_UNIMP		8

#define DEPTH()		(sp - stack)
#define TOP		sp[-1]
#define ISREG(c)	((c) != '\0' && strchr(regnames, (c)) != NULL)
#define REGNO(c)	((c) - 'a')

/* a binary operator on the two top cells: a is below, b on top */
#define BINOP(name, expr) \
	name() { register long *p = sp - 2; long a = p[0], b = p[1]; \
		p[0] = (expr); sp--; return E_OK; }

typedef struct op {
	char	name;
	char	nargs;		/* cells it needs on the stack */
	int	(*fn)();
	char	*what;
} Op;

extern long stack[], *sp;
extern long reg[];
extern int obase;

int op_add(), op_sub(), op_mul(), op_div(), op_rem(), op_exp();
int op_dup(), op_swap(), op_print(), op_pop(), op_dump();
int op_clear(), op_depth(), op_obase(), op_neg();

static Op optab[] = {
	{ '+', 2, op_add,   "add" },
	{ '-', 2, op_sub,   "subtract" },
	{ '*', 2, op_mul,   "multiply" },
	{ '/', 2, op_div,   "divide" },
	{ '%', 2, op_rem,   "remainder" },
	{ '^', 2, op_exp,   "power" },
	{ 'd', 1, op_dup,   "duplicate" },
	{ 'r', 2, op_swap,  "swap" },
	{ 'p', 1, op_print, "print top" },
	{ 'n', 1, op_pop,   "pop and print" },
	{ 'f', 0, op_dump,  "dump stack" },
	{ 'c', 0, op_clear, "clear" },
	{ 'z', 0, op_depth, "depth" },
	{ 'o', 1, op_obase, "output base" },
	{ '~', 1, op_neg,   "negate" },
	{ 0, 0, 0, 0 }
};

static char *errtab[] = {
	"no error",
	"stack empty",
	"stack full",
	"divide by zero",
	"remainder by zero",
	"negative exponent",
	"bad register",
	"output base out of range",
	"unimplemented",
};

static char regnames[] = "abcdefghijklmnopqrstuvwxyz";
static char digits[] = "0123456789ABCDEF";

extern Op *findop();
long getnum();
int push();
int print_num();
