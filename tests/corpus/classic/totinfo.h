/*
 * totinfo.h - contingency tables and their chi-square and information
 * statistics, with log, exp and the log gamma function computed by the
 * program itself from series, as on machines whose libm was not trusted.
 */

#define MAXROW		8
#define MAXCOL		8
#define MAXLINE		128
#define ITMAX		200	/* iterations of the incomplete gamma */
#define EPS		1.0e-12
#define FPMIN		1.0e-300
#define NSERIES		30	/* terms of the log and exp series */

#define LN2		0.69314718055994530942
#define SQRT2PI		2.5066282746310005

#define SQR(x)		((x) * (x))
#define NLOGN(n)	((n) > 0 ? (double)(n) * mylog((double)(n)) : 0.0)

/* Lanczos coefficients for the log gamma function (gamma = 5) */
static double lanczos[] = {
	76.18009172947146, -86.50532032941677, 24.01409824083091,
	-1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5,
};
#define NLANCZOS	(sizeof lanczos / sizeof lanczos[0])

/* significance levels and their marks */
static double siglev[] = { 0.001, 0.01, 0.05, 1.01 };
static char *sigmark[] = { "***", "**", "*", "" };

/* gamma function arguments for the -g self test */
static double gtest[] = { 0.5, 1.0, 1.5, 2.0, 3.5, 5.0, 10.0, 0.0 };

typedef struct {
	int rows, cols;
	long cell[MAXROW][MAXCOL];
	long rsum[MAXROW], csum[MAXCOL];
	long total;
} TABLE;

extern double mylog();
extern double myexp();
extern double lgam();
extern double qgamma();
extern double qchisq();
int readtab();
int analyse();
