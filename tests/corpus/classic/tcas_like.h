/*
 * tcas_like.h - a collision avoidance advisory in the manner of the
 * traffic alert systems of the 1990s: twelve integer inputs describe our
 * own aircraft and an intruder, and a chain of small decision functions
 * picks a resolution advisory.  Thresholds and names live in tables.
 */

#define NINPUTS		12
#define MAXLINE		200

#define OLEV		600	/* ft/min: beyond this our own rate is too wild */
#define MAXALTDIFF	600	/* ft: closer than this it is too late */
#define MINSEP		300	/* ft */
#define NOZCROSS	100	/* ft */

/* intents announced by the intruder */
#define NO_INTENT	0
#define DO_NOT_CLIMB	1
#define DO_NOT_DESCEND	2

/* the intruder's equipment */
#define TCAS_TA		1
#define OTHER		2

/* advisories */
#define UNRESOLVED	0
#define UPWARD_RA	1
#define DOWNWARD_RA	2

static char *advname[] = { "UNRESOLVED", "UPWARD_RA", "DOWNWARD_RA" };

/* the altitude threshold for each altitude layer */
static int Positive_RA_Alt_Thresh[] = { 400, 500, 640, 740 };

/* advised vertical rate by how much room there is above the threshold */
#define NRATES		3
static long rate_margin[NRATES] = { 800, 300, 0 };
static int rate_table[NRATES] = { 1500, 2500, 4400 };

/* the inputs, in argv order, and their allowed ranges */
struct input {
	char *name;
	long min, max;
};

static struct input inputs[NINPUTS] = {
	{ "Cur_Vertical_Sep", 0, 99999 },
	{ "High_Confidence", 0, 1 },
	{ "Two_of_Three_Reports_Valid", 0, 1 },
	{ "Own_Tracked_Alt", 0, 99999 },
	{ "Own_Tracked_Alt_Rate", -9999, 9999 },
	{ "Other_Tracked_Alt", 0, 99999 },
	{ "Alt_Layer_Value", 0, 3 },
	{ "Up_Separation", 0, 99999 },
	{ "Down_Separation", 0, 99999 },
	{ "Other_RAC", NO_INTENT, DO_NOT_DESCEND },
	{ "Other_Capability", TCAS_TA, OTHER },
	{ "Climb_Inhibit", 0, 1 },
};

#define BOOL(x)		((x) ? 1 : 0)
#define ABS(x)		((x) < 0 ? -(x) : (x))

int ALIM();
int Own_Below_Threat();
int Own_Above_Threat();
int Non_Crossing_Biased_Climb();
int Non_Crossing_Biased_Descend();
int alt_sep_test();
int getnum();
extern char *sense();
