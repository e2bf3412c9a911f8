/*
 * expr_calc.h - an infix calculator over long integers with 26 variables,
 * written in the manner of the old desk calculators: a hand-made scanner,
 * recursive descent, error codes instead of exceptions.
 */

#define MAXLINE		256
#define NVARS		26

/* token kinds */
#define T_END		0
#define T_NUM		1
#define T_VAR		2
#define T_OP		3
#define T_LPAR		4
#define T_RPAR		5
#define T_ASSIGN	6
#define T_BAD		7

/* error codes: indexes into errmsg[] */
#define E_OK		0
#define E_SYNTAX	1
#define E_DIVZ		2
#define E_PAREN		3
#define E_UNDEF		4
#define E_DEPTH		5
#define E_TRAIL		6

#define MAXDEPTH	40

#define ISVAR(c)	((c) >= 'a' && (c) <= 'z')
#define VARNO(c)	((c) - 'a')

struct token {
	int kind;
	long val;
	int op;
};

/* binding power of each binary operator, by character */
static char opchars[] = "|^&<>+-*/%";
static int prec[] = { 1, 2, 3, 4, 4, 5, 5, 6, 6, 6 };

static char *errmsg[] = {
	"ok",
	"syntax error",
	"division by zero",
	"unbalanced parenthesis",
	"undefined variable",
	"expression too deep",
	"junk after expression",
};

static char *kindname[] = {
	"end", "number", "variable", "operator", "(", ")", "=", "bad",
};

extern long eval();
extern long binop();
extern char *skipws();
int next();
int precof();
