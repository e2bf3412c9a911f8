/*
 * print_tok.h - tables for a hand-written tokenizer of a small C-like
 * language: the kinds of token, a character class table indexed by the
 * ASCII code, the sorted keyword table searched by binary search, and the
 * two-character operators.
 */

#define MAXTOK		40	/* longest token text */
#define NPUSH		4	/* depth of the pushback stack */

/* token kinds */
#define T_EOF		0
#define T_IDENT		1
#define T_KEYWORD	2
#define T_INT		3
#define T_FLOAT		4
#define T_STRING	5
#define T_CHAR		6
#define T_OP		7
#define T_PUNCT		8
#define T_DIRECT	9
#define NKINDS		10
#define T_ERROR		NKINDS

static char *kindname[NKINDS] = {
	"eof", "ident", "keyword", "int", "float",
	"string", "char", "op", "punct", "directive",
};

/* character classes */
#define C_OTHER		0
#define C_SPACE		1
#define C_NL		2
#define C_LETTER	3	/* letters and _ */
#define C_DIGIT		4
#define C_QUOTE		5	/* " and ' */
#define C_OP		6	/* + - * / % = < > ! & | ^ ~ ? : */
#define C_PUNCT		7	/* ( ) [ ] { } , ; . */
#define C_HASH		8	/* # */

static char cclass[128] = {
/* nul .. si */	0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 1, 1, 1, 0, 0,
/* dle .. us */	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
/*  !"#$%&'()*+,-./ */
		1, 6, 5, 8, 0, 6, 6, 5, 7, 7, 6, 6, 7, 6, 7, 6,
/* 0123456789:;<=>? */
		4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 7, 6, 6, 6, 6,
/* @ABCDEFGHIJKLMNO */
		0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
/* PQRSTUVWXYZ[\]^_ */
		3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 7, 0, 7, 6, 3,
/* `abcdefghijklmno */
		0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
/* pqrstuvwxyz{|}~  */
		3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 7, 6, 7, 6, 0,
};

#define CLASS(c)	((c) >= 0 && (c) < 128 ? cclass[c] : C_OTHER)
#define ISIDCH(c)	(CLASS(c) == C_LETTER || CLASS(c) == C_DIGIT)

/* must stay sorted: kwlookup() does a binary search */
static char *keywords[] = {
	"auto", "break", "case", "char", "const", "continue", "default",
	"do", "double", "else", "enum", "extern", "float", "for", "goto",
	"if", "int", "long", "register", "return", "short", "signed",
	"sizeof", "static", "struct", "switch", "typedef", "union",
	"unsigned", "void", "volatile", "while",
};
#define NKEYWORDS	(sizeof keywords / sizeof keywords[0])

static char *ops2[] = {
	"==", "!=", "<=", ">=", "&&", "||", "++", "--", "->", "<<", ">>",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", 0,
};

typedef struct token {
	int kind;
	int line, col;
	int len;		/* characters in text */
	int nchars;		/* characters a string stands for */
	unsigned long ival;	/* value of an int or char constant */
	char text[MAXTOK + 1];
} Token;

extern char *kwlookup();
int gettoken();
int nextc();
int unget();
int digitval();
int escval();
