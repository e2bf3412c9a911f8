/*
 * bank_queue.h - a discrete event simulation of a bank with several tellers,
 * in the style of the simulation exercises of old textbooks: an event list
 * kept sorted by time, a FIFO of waiting customers, and a home-made
 * linear congruential generator so that every run is the same.
 */

#define MAXTELLERS	6
#define MAXQUEUE	500
#define MAXEVENTS	1000

/* event kinds */
#define E_ARRIVE	0
#define E_DEPART	1
#define E_CLOSE		2

typedef struct event {
	long time;
	int kind;
	int teller;
	struct event *next;
} EVENT;

typedef struct customer {
	int id;
	long arrived;
	int kind;		/* index into servtime[] */
} CUSTOMER;

/* service time ranges by kind of business: deposit, withdrawal, loan */
static int servtime[][2] = { { 2, 5 }, { 3, 7 }, { 10, 30 } };
static char *kindname[] = { "deposit", "withdrawal", "loan" };
/* how often each kind comes, out of 10 */
static int kindfreq[] = { 5, 4, 1 };

static char *evname[] = { "arrive", "depart", "close" };

#define LCG_A		1103515245UL
#define LCG_C		12345UL
#define LCG_M		2147483648UL

extern EVENT *newevent();
extern long uniform();
int schedule();
int serve();
