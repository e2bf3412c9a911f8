/*
 * line_ed.h - a tiny line editor in the manner of ed(1): a buffer of
 * lines kept in a doubly linked list, addresses, and a command table.
 */

#define MAXLINE		128
#define MAXLINES	200

/* command results: indexes into cmdmsg[] */
#define C_OK		0
#define C_ADDR		1
#define C_UNKNOWN	2
#define C_FULL		3
#define C_NOMATCH	4
#define C_QUIT		5

typedef struct line {
	struct line *prev, *next;
	char text[MAXLINE];
	int mark;
} LINE;

/* commands and how many addresses each takes (0, 1 or 2) */
static char cmdchars[] = "apdnsjmcq=";
static int naddrs[] = { 1, 2, 2, 2, 2, 2, 1, 2, 0, 1 };

static char *cmdmsg[] = {
	"ok",
	"invalid address",
	"unknown command",
	"buffer full",
	"no match",
	"quit",
};

extern LINE *getline_n();
extern LINE *newline_after();
extern char *subst();
int docmd();
int getaddr();
