/*
 * sched.h - a priority scheduler simulation in the manner of the old
 * operating systems course exercises: three ready queues of doubly linked
 * elements, one queue of blocked jobs, and commands given as small
 * integers on stdin.
 */

#define MAXPRIO		3	/* priorities run 1 (low) .. MAXPRIO (high) */
#define BLOCKPRIO	0	/* the blocked queue lives in slot 0 */
#define MAXCMD		7
#define MAXLINE		10	/* finished jobs per output line in FLUSH */

/* commands */
#define NEW_JOB		1	/* NEW_JOB prio */
#define UPGRADE_PRIO	2	/* UPGRADE_PRIO prio ratio */
#define BLOCK		3
#define UNBLOCK		4	/* UNBLOCK ratio */
#define QUANTUM_EXPIRE	5
#define FINISH		6
#define FLUSH		7

static char *cmdname[MAXCMD + 1] = {
	"?", "NEW_JOB", "UPGRADE_PRIO", "BLOCK", "UNBLOCK",
	"QUANTUM_EXPIRE", "FINISH", "FLUSH",
};

/* how many numbers follow each command */
static int nargs[MAXCMD + 1] = { 0, 1, 2, 0, 1, 0, 0, 0 };

static char *prioname[MAXPRIO + 1] = { "blocked", "low", "medium", "high" };

/* the quantum a job of each priority gets: a job that has used up
   more quanta than this at its level is demoted on expiry */
static short patience[MAXPRIO + 1] = { 0, 99, 3, 2 };

typedef struct _ele {
	struct _ele *next, *prev;
	int val;		/* job number */
	int prio;		/* its priority, kept when blocked */
	int quanta;		/* quanta used at this priority */
	int total;		/* quanta used in all */
} Ele;

typedef struct _list {
	Ele *first, *last;
	int mem_count;
} List;

#define EMPTY(l)	((l) == NULL || (l)->mem_count == 0)
#define RATIO_INDEX(r, n)	((int)((r) * (float)(n)) + 1)

extern Ele *new_ele();
extern List *new_list();
extern List *append_ele();
extern List *del_ele();
extern Ele *find_nth();
int free_ele();
int schedule();
int finish_process();
