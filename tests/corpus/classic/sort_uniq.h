/*
 * sort_uniq.h - sort(1) and uniq(1) in one: lines kept in a singly linked
 * list, sorted by a merge sort on the list, with the usual flags.
 */

#define MAXLINE		200

typedef struct node {
	struct node *next;
	char *text;
	long key;		/* numeric key with -n */
	int count;		/* with -c: how many equal lines were merged */
} NODE;

/* flags, by letter, and the bit each sets */
static char flagchars[] = "rncufd";
static int flagbits[] = { 1, 2, 4, 8, 16, 32 };
#define F_REV		1
#define F_NUM		2
#define F_COUNT		4
#define F_UNIQ		8
#define F_FOLD		16
#define F_DUPS		32

/* the characters folded with -f, and their lower case */
static char upper[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
static char lower[] = "abcdefghijklmnopqrstuvwxyz";

extern NODE *msort();
extern NODE *merge();
extern char *savestr();
int compare();
int fold();
