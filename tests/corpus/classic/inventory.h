/*
 * inventory.h - a stock-keeping report of the kind small shops ran on
 * their first computers: item records, transactions, reorder rules, and
 * a price table by category.
 */

#define MAXITEMS	64
#define NAMELEN		20

typedef struct item {
	char code[8];
	char name[NAMELEN];
	int cat;		/* index into catname[], markup[] */
	long qty;
	long cost;		/* cents */
	long sold, received;
	short reorder;		/* reorder when qty falls below */
} ITEM;

static char *catname[] = { "food", "tools", "paper", "misc" };
/* markup in percent over cost, by category */
static int markup[] = { 20, 45, 30, 50 };
#define NCAT		4

/* transaction codes */
static char txcodes[] = "ASRPD";	/* add item, sell, receive, price change, delete */

#define CENTS(x)	((x) / 100), ((x) % 100 < 0 ? -((x) % 100) : (x) % 100)

extern ITEM *find();
extern long price();
int byvalue();
int transact();
