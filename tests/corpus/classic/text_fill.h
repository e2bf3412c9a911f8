/*
 * text_fill.h - a paragraph filler in the manner of fmt(1) and nroff.
 *
 * Words are kept end to end in one buffer, each NUL terminated, with
 * a table of pointers to their starts.  When the buffer fills, the
 * finished lines are put out and the rest of the words slid down.
 */

#define MINWIDTH	8
#define MAXWIDTH	100
#define DEFWIDTH	40
#define WBUFSIZE	256
#define MAXWORDS	48

/* option flags */
#define F_CENTER	01
#define F_NUMBER	02
#define F_LEFT		04

/* modes, indexes into modenames[] */
#define M_JUST		0
#define M_CENTER	1
#define M_LEFT		2

/* errors, indexes into errmsgs[] */
#define E_WIDTH		0
#define E_OPTION	1
#define E_ARGS		2

#define BLANK(c)	((c) == ' ' || (c) == '\t' || (c) == '\r')
#define ROOM()		(wbuf + WBUFSIZE - wp)

typedef struct stats {
	int	lines;
	int	words;
	int	sentences;
	int	paras;
	int	truncated;
	int	slides;		/* times the buffer was compacted */
} Stats;

static char optchars[] = "cnl";
static int optbits[] = { F_CENTER, F_NUMBER, F_LEFT };
static char *modenames[] = { "justified", "centered", "ragged" };
static char endpunct[] = ".!?";
static char *errmsgs[] = {
	"width must be a number from 8 to 100",
	"unknown option",
	"too many arguments",
};

extern char wbuf[], *wp;
extern char *words[];
extern short wlen[];
extern int nwords;
extern Stats st;

extern char *endword();
int flush();
int emit();
int slide();
int endpara();
