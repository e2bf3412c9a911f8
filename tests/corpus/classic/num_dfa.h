/*
 * num_dfa.h - a table-driven recogniser of C numeric literals: a state
 * transition table indexed by state and character class, as lex(1) would
 * generate, with the accepting states and what they accept.
 */

/* character classes */
#define K_ZERO		0	/* 0 */
#define K_OCT		1	/* 1-7 */
#define K_DEC		2	/* 8-9 */
#define K_X		3	/* x X */
#define K_HEXL		4	/* a-d f A-D F (hex letters but e) */
#define K_E		5	/* e E */
#define K_DOT		6	/* . */
#define K_SIGN		7	/* + - */
#define K_SUFF		8	/* u U l L */
#define K_OTHER		9
#define NCLASS		10

/* states; S_ERR is the trap */
#define S_START		0
#define S_ZERO		1
#define S_OCT		2
#define S_DEC		3
#define S_HEX0		4
#define S_HEX		5
#define S_DOT		6
#define S_FRAC		7
#define S_EXP		8
#define S_EXPS		9
#define S_EXPD		10
#define S_SUFF		11
#define S_ERR		12
#define NSTATE		13

static char next_state[NSTATE][NCLASS] = {
/*              0   1-7 8-9 x   hex e   .   +-  uL  other */
/* START */   { 1,  3,  3,  12, 12, 12, 6,  12, 12, 12 },
/* ZERO */    { 2,  2,  12, 4,  12, 8,  7,  12, 11, 12 },
/* OCT */     { 2,  2,  12, 12, 12, 12, 12, 12, 11, 12 },
/* DEC */     { 3,  3,  3,  12, 12, 8,  7,  12, 11, 12 },
/* HEX0 */    { 5,  5,  5,  12, 5,  5,  12, 12, 12, 12 },
/* HEX */     { 5,  5,  5,  12, 5,  5,  12, 12, 11, 12 },
/* DOT */     { 7,  7,  7,  12, 12, 12, 12, 12, 12, 12 },
/* FRAC */    { 7,  7,  7,  12, 12, 8,  12, 12, 12, 12 },
/* EXP */     { 10, 10, 10, 12, 12, 12, 12, 9,  12, 12 },
/* EXPS */    { 10, 10, 10, 12, 12, 12, 12, 12, 12, 12 },
/* EXPD */    { 10, 10, 10, 12, 12, 12, 12, 12, 12, 12 },
/* SUFF */    { 12, 12, 12, 12, 12, 12, 12, 12, 11, 12 },
/* ERR */     { 12, 12, 12, 12, 12, 12, 12, 12, 12, 12 },
};

/* what an accepting state accepts; 0 for a state that does not accept */
static char *accepts[NSTATE] = {
	0, "octal", "octal", "decimal", 0, "hex", 0, "float", 0, 0, "float", "suffixed", 0,
};

extern char *classify();
int charclass();
int run();
