/*
 * cal_date.h - calendar arithmetic in the manner of cal(1): proleptic
 * Gregorian dates, day numbers, and month tables.
 */

#define MINYEAR		1
#define MAXYEAR		9999

#define ISLEAP(y)	(((y) % 4 == 0 && (y) % 100 != 0) || (y) % 400 == 0)

typedef struct date {
	int year, month, day;
} DATE;

/* days in each month of a common year; February gets one more in leap years */
static int mdays[2][13] = {
	{ 0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 },
	{ 0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 },
};

/* days before the first of each month */
static int before[2][13] = {
	{ 0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 },
	{ 0, 0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335 },
};

static char *mnames[] = {
	"", "January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December",
};

static char *dnames[] = {
	"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
};

extern long daynum();
extern DATE *fromday();
int parsedate();
int valid();
int weekday();
