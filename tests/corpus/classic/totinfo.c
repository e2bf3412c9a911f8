// Classic statistics program: K&R definitions with implicit int and double functions declared without prototypes, log/exp/log-gamma computed by the program's own series from coefficient tables in the header, float parameters promoted, scanf of tables with gotos for bad input and for loops that converge.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type -Wno-sign-compare
// RUN: stdin=totinfo.1.in
// RUN: stdin=totinfo.2.in
// RUN: args=-g
// RUN: stdin=""
// RUN: stdin="2 2\n10 0\n0 10\n# trailing comment\n3 3 1 2\n"
// RUN: stdin="1 4\n25 25 25 25\n1 4\n40 20 30 10\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "totinfo.h"

static TABLE tab;
static int ntables, nbad;
static double totinfo;
static int totdf;

/* natural log: x = m * 2^k with m in [1,2), ln m = 2 atanh((m-1)/(m+1)) */
double
mylog(x)
	double x;
{
	register i;
	int k = 0;
	double z, z2, term, sum;

	if (x <= 0.0)
		return -1.0e300;
	while (x >= 2.0) {
		x /= 2.0;
		k++;
	}
	while (x < 1.0) {
		x *= 2.0;
		k--;
	}
	z = (x - 1.0) / (x + 1.0);
	z2 = z * z;
	term = z;
	sum = 0.0;
	for (i = 1; i < 2 * NSERIES; i += 2) {
		sum += term / i;
		term *= z2;
	}
	return 2.0 * sum + k * LN2;
}

/* e^x: x = n ln 2 + r, |r| < ln 2, e^r by its Taylor series */
double
myexp(x)
	double x;
{
	register i;
	int n;
	double r, term, sum;

	if (x < -700.0)
		return 0.0;
	if (x > 700.0)
		return 1.0e300;
	n = (int)(x / LN2);
	r = x - n * LN2;
	term = 1.0;
	sum = 1.0;
	for (i = 1; i <= NSERIES; i++) {
		term *= r / i;
		sum += term;
	}
	for (; n > 0; n--)
		sum *= 2.0;
	for (; n < 0; n++)
		sum /= 2.0;
	return sum;
}

/* log of the gamma function, after Lanczos */
double
lgam(x)
	double x;
{
	double y, tmp, ser;
	register j;

	y = x;
	tmp = x + 5.5;
	tmp -= (x + 0.5) * mylog(tmp);
	ser = 1.000000000190015;
	for (j = 0; j < NLANCZOS; j++)
		ser += lanczos[j] / ++y;
	return -tmp + mylog(SQRT2PI * ser / x);
}

/* the complement of the regularised incomplete gamma function, Q(a,x) */
double
qgamma(a, x)
	double a, x;
{
	double ap, sum, del, b, c, d, h, an, gln;
	register i;

	if (x <= 0.0 || a <= 0.0)
		return 1.0;
	gln = lgam(a);
	if (x < a + 1.0) {
		/* the series for P, then 1 - P */
		ap = a;
		del = sum = 1.0 / a;
		for (i = 1; i <= ITMAX; i++) {
			ap += 1.0;
			del *= x / ap;
			sum += del;
			if (del < sum * EPS)
				goto series_done;
		}
		printf("warning: series did not converge\n");
series_done:
		return 1.0 - sum * myexp(-x + a * mylog(x) - gln);
	}
	/* Lentz's continued fraction for Q */
	b = x + 1.0 - a;
	c = 1.0 / FPMIN;
	d = 1.0 / b;
	h = d;
	for (i = 1; i <= ITMAX; i++) {
		an = -i * (i - a);
		b += 2.0;
		d = an * d + b;
		if (d < FPMIN && d > -FPMIN)
			d = FPMIN;
		c = b + an / c;
		if (c < FPMIN && c > -FPMIN)
			c = FPMIN;
		d = 1.0 / d;
		del = d * c;
		h *= del;
		if (del - 1.0 < EPS && del - 1.0 > -EPS)
			goto cf_done;
	}
	printf("warning: fraction did not converge\n");
cf_done:
	return myexp(-x + a * mylog(x) - gln) * h;
}

double
qchisq(chisq, df)
	double chisq;
	int df;
{
	return qgamma(df / 2.0, chisq / 2.0);
}

char *
stars(p)
	float p;
{
	register i;

	for (i = 0; p >= siglev[i]; i++)
		;
	return sigmark[i];
}

/* skip blanks and # comments; EOF at the end */
skipjunk()
{
	register c;

again:
	switch (c = getchar()) {
	case ' ':
	case '\t':
	case '\n':
		goto again;
	case '#':
		while ((c = getchar()) != '\n' && c != EOF)
			;
		goto again;
	case EOF:
		return EOF;
	default:
		ungetc(c, stdin);
		return 0;
	}
}

/* 1 for a table, 0 at the end, -1 when the input is bad */
readtab(t)
	register TABLE *t;
{
	register i, j;

	if (skipjunk() == EOF)
		return 0;
	if (scanf("%d %d", &t->rows, &t->cols) != 2)
		goto bad;
	if (t->rows < 1 || t->rows > MAXROW || t->cols < 1 || t->cols > MAXCOL) {
		printf("table %d: bad size %d x %d\n", ntables + 1, t->rows, t->cols);
		return -1;
	}
	t->total = 0;
	for (j = 0; j < t->cols; j++)
		t->csum[j] = 0;
	for (i = 0; i < t->rows; i++) {
		t->rsum[i] = 0;
		for (j = 0; j < t->cols; j++) {
			if (skipjunk() == EOF || scanf("%ld", &t->cell[i][j]) != 1)
				goto bad;
			if (t->cell[i][j] < 0) {
				printf("table %d: negative count\n", ntables + 1);
				return -1;
			}
			t->rsum[i] += t->cell[i][j];
			t->csum[j] += t->cell[i][j];
			t->total += t->cell[i][j];
		}
	}
	return 1;
bad:
	printf("table %d: bad or missing number\n", ntables + 1);
	return -1;
}

/* one table: chi-square against independence (or, for a single row or
   column, against equal counts) and the information statistic */
analyse(t)
	register TABLE *t;
{
	register i, j;
	int df, k;
	long *v;
	double chisq = 0.0, info = 0.0, e, n, p, pi;

	n = (double)t->total;
	if (t->total == 0)
		goto empty;
	if (t->rows == 1 || t->cols == 1) {
		k = t->rows == 1 ? t->cols : t->rows;
		v = t->rows == 1 ? t->csum : t->rsum;
		df = k - 1;
		e = n / k;
		for (i = 0; i < k; i++) {
			chisq += SQR(v[i] - e) / e;
			info += NLOGN(v[i]);
		}
		info = 2.0 * (info - n * mylog(e));
	} else {
		df = (t->rows - 1) * (t->cols - 1);
		for (i = 0; i < t->rows; i++)
			for (j = 0; j < t->cols; j++) {
				e = (double)t->rsum[i] * t->csum[j] / n;
				if (e == 0.0)
					goto empty;
				chisq += SQR(t->cell[i][j] - e) / e;
				info += NLOGN(t->cell[i][j]);
			}
		for (i = 0; i < t->rows; i++)
			info -= NLOGN(t->rsum[i]);
		for (j = 0; j < t->cols; j++)
			info -= NLOGN(t->csum[j]);
		info = 2.0 * (info + NLOGN(t->total));
	}
	if (df == 0) {
		printf("table %d: %d x %d, no degrees of freedom\n",
		    ntables, t->rows, t->cols);
		return -1;
	}
	p = qchisq(chisq, df);
	pi = qchisq(info, df);
	printf("table %d: %d x %d, N = %ld, df = %d\n", ntables,
	    t->rows, t->cols, t->total, df);
	printf("  chisq %10.4f  p %.4f %s\n", chisq, p, stars(p));
	printf("  info  %10.4f  p %.4f %s\n", info, pi, stars(pi));
	totinfo += info;
	totdf += df;
	return 0;
empty:
	printf("table %d: %d x %d has an empty row or column\n",
	    ntables, t->rows, t->cols);
	return -1;
}

selftest()
{
	register double *g;
	double lg;

	printf("%6s %12s %12s %12s\n", "x", "lgamma", "gamma", "exp(log x)");
	for (g = gtest; *g > 0.0; g++) {
		lg = lgam(*g);
		printf("%6.2f %12.4f %12.4f %12.4f\n", *g, lg, myexp(lg),
		    myexp(mylog(*g)));
	}
	printf("ln 10 = %.10f, e = %.10f\n", mylog(10.0), myexp(1.0));
	printf("Q(3.84, 1) = %.4f, Q(5.99, 2) = %.4f, Q(30, 10) = %.6f\n",
	    qchisq(3.84, 1), qchisq(5.99, 2), qchisq(30.0, 10));
}

main(argc, argv)
	int argc;
	char **argv;
{
	int r;

	if (argc > 1 && strcmp(argv[1], "-g") == 0) {
		selftest();
		exit(0);
	}
	while ((r = readtab(&tab)) != 0) {
		ntables++;
		if (r < 0) {
			nbad++;
			/* the rest of the input cannot be trusted */
			break;
		}
		if (analyse(&tab) < 0)
			nbad++;
	}
	if (totdf > 0)
		printf("total: info %.4f, df %d, p %.4f %s\n", totinfo, totdf,
		    qchisq(totinfo, totdf), stars(qchisq(totinfo, totdf)));
	printf("%d table(s), %d bad\n", ntables, nbad);
	return nbad != 0;
}
