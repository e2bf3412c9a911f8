/*
 * xref.h - a cross-referencer for C-like text in the manner of cxref(1):
 * identifiers in a hash table of chained entries, each with the list of
 * lines it appears on; C keywords skipped; comments and strings skipped.
 */

#define HASHSIZE	101
#define MAXWORD		32
#define MAXREFS		12

typedef struct ref {
	struct ref *next;
	int line;
} REF;

typedef struct sym {
	struct sym *link;	/* hash chain */
	char name[MAXWORD];
	REF *refs, *last;
	int count;
} SYM;

static char *keywords[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do",
	"double", "else", "enum", "extern", "float", "for", "goto", "if", "int",
	"long", "register", "return", "short", "signed", "sizeof", "static",
	"struct", "switch", "typedef", "union", "unsigned", "void", "volatile",
	"while", 0
};

/* character classes: 1 letter or _, 2 digit, 4 quote, 8 slash */
static char ctab[128];
#define C_ALPHA		1
#define C_DIGIT		2
#define C_QUOTE		4
#define C_SLASH		8

#define CLASS(c)	((c) >= 0 && (c) < 128 ? ctab[(c)] : 0)

extern SYM *lookup();
unsigned hash();
int iskeyword();
int getword();
