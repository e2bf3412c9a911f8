/*
 * wordfreq.h - counting words with an open hash table: chains of
 * malloc'd nodes, a table that grows through a list of primes when the
 * chains get long, and a shell sort of the nodes by count.
 */

#define MAXWORD		24	/* longer words are cut */
#define LOADMAX		2	/* grow when words > LOADMAX * buckets */
#define DEFTOP		10

/* bucket counts the table goes through */
static unsigned primes[] = {
	13, 31, 61, 127, 251, 509, 1021, 2039, 4093, 8191, 0,
};

/* gaps for the shell sort, largest first (Ciura) */
static int gaps[] = { 701, 301, 132, 57, 23, 10, 4, 1 };
#define NGAPS		(sizeof gaps / sizeof gaps[0])

#define HASHMUL		33
#define ISWORDCH(c)	(isalpha(c))
#define LOWER(c)	(isupper(c) ? tolower(c) : (c))

typedef struct node {
	char *word;
	int count;
	struct node *next;
} Node;

typedef struct {
	Node **bucket;
	unsigned size;		/* a member of primes[] */
	int sizeidx;
	long nwords;		/* distinct words */
	int ngrow;
} Table;

extern char *dup_str();
extern Node *lookup();
extern unsigned hash();
int getword();
int grow();
int shellsort();
int cmpnode();
