/*
 * replace_pat.h - codes of the compiled patterns and replacements of a
 * substitution filter after "Software Tools": the pattern is compiled into
 * an array of ints, each element a code followed by its operands.
 *
 *	?	any character but newline
 *	*	any number of the element before
 *	[..]	a character class, [^..] its complement, a-z a range
 *	%	at the start: the beginning of the line
 *	$	at the end: the end of the line
 *	@c	c literally, or @n @t @r @b for newline, tab, return, backspace
 *
 * In the replacement, & stands for the matched text.
 */

#define MAXPAT		200
#define MAXLINE		256

/* pattern codes */
#define P_END		0
#define P_LIT		1	/* P_LIT c */
#define P_BOL		2
#define P_EOL		3
#define P_ANY		4
#define P_CCL		5	/* P_CCL n c1 .. cn */
#define P_NCCL		6	/* P_NCCL n c1 .. cn */
#define P_CLOSURE	7	/* P_CLOSURE element */
#define NCODES		8

static char *codename[NCODES] = {
	"end", "lit", "bol", "eol", "any", "ccl", "nccl", "closure",
};

/* how many ints each code takes; 0 for the classes, which say so */
static int codelen[NCODES] = { 1, 2, 1, 1, 1, 0, 0, 1 };

/* replacement codes; anything else is a character */
#define S_END		(-1)
#define S_DITTO		(-2)

/* @ escapes */
#define ESCAPE		'@'
static struct esctab {
	char from, to;
} esctab[] = {
	{ 'n', '\n' }, { 't', '\t' }, { 'r', '\r' }, { 'b', '\b' }, { 0, 0 },
};

#define ISCLASS(c)	((c) == P_CCL || (c) == P_NCCL)

extern int makepat();
extern int makesub();
int amatch();
int omatch();
int locate();
int patsize();
char esc();
