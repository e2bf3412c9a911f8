/*
 * big_num.h - unsigned decimal arithmetic of arbitrary length, digits kept
 * least significant first in fixed arrays, as in the old bc(1) back ends.
 */

#define MAXDIG		400
#define BASE		10

typedef struct {
	int len;		/* number of digits; 0 is one digit 0 */
	char d[MAXDIG];
} BIG;

/* operation names for the trace, by command character */
static char opcodes[] = "+-*!fpc";
static char *opnames[] = {
	"add", "subtract", "multiply", "factorial", "fibonacci", "power", "compare",
};

/* small primes for the divisibility report */
static int primes[] = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37 };
#define NPRIMES		(sizeof primes / sizeof primes[0])

#define ISDIGIT(c)	((c) >= '0' && (c) <= '9')

extern BIG *bigadd();
extern BIG *bigsub();
extern BIG *bigmul();
int bigcmp();
int bigset();
int bigsmall();
