// Classic calendar arithmetic: K&R definitions with implicit int, month tables in the header, a static DATE result, a switch over commands read from stdin, month printing like cal(1), goto for bad input.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=cal_date.1.in
// RUN: stdin=cal_date.2.in
// RUN: args=-m stdin="cal 2 2024\ncal 9 1752\n"
// RUN: stdin=""
// RUN: stdin="dow 2023-02-29\ndiff 2000-01-01\nadd 9999-12-31 1\nzzz\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cal_date.h"

static int mflag;		/* weeks start on Monday */
static int nbad;

valid(d)
	DATE *d;
{
	if (d->year < MINYEAR || d->year > MAXYEAR)
		return 0;
	if (d->month < 1 || d->month > 12)
		return 0;
	return d->day >= 1 && d->day <= mdays[ISLEAP(d->year)][d->month];
}

/* days since 0001-01-01 (day 0) */
long
daynum(d)
	DATE *d;
{
	long y = d->year - 1;

	return y * 365 + y / 4 - y / 100 + y / 400
	    + before[ISLEAP(d->year)][d->month] + d->day - 1;
}

DATE *
fromday(n)
	long n;
{
	static DATE d;
	register int leap;
	long y400, y100, y4, y1;

	y400 = n / 146097;
	n %= 146097;
	y100 = n / 36524;
	if (y100 == 4)
		y100 = 3;
	n -= y100 * 36524;
	y4 = n / 1461;
	n %= 1461;
	y1 = n / 365;
	if (y1 == 4)
		y1 = 3;
	n -= y1 * 365;
	d.year = (int)(y400 * 400 + y100 * 100 + y4 * 4 + y1 + 1);
	leap = ISLEAP(d.year);
	for (d.month = 1; d.month < 12 && n >= before[leap][d.month + 1]; d.month++)
		;
	d.day = (int)(n - before[leap][d.month] + 1);
	return &d;
}

/* 0 = Sunday; 0001-01-01 was a Monday in the proleptic calendar */
weekday(d)
	DATE *d;
{
	return (int)((daynum(d) + 1) % 7);
}

/* YYYY-MM-DD into *d; 0 when malformed */
parsedate(s, d)
	char *s;
	DATE *d;
{
	char *end;

	d->year = (int)strtol(s, &end, 10);
	if (*end != '-')
		return 0;
	d->month = (int)strtol(end + 1, &end, 10);
	if (*end != '-')
		return 0;
	d->day = (int)strtol(end + 1, &end, 10);
	return *end == '\0' || *end == ' ' || *end == '\n';
}

static
printmonth(month, year)
	int month, year;
{
	DATE first;
	register int i, col;
	int start, n;

	first.year = year;
	first.month = month;
	first.day = 1;
	printf("   %s %d\n", mnames[month], year);
	for (i = 0; i < 7; i++)
		printf("%.2s%s", dnames[(i + mflag) % 7], i < 6 ? " " : "\n");
	start = (weekday(&first) + 7 - mflag) % 7;
	for (col = 0; col < start; col++)
		printf("   ");
	n = mdays[ISLEAP(year)][month];
	for (i = 1; i <= n; i++) {
		printf("%2d", i);
		if (++col == 7) {
			putchar('\n');
			col = 0;
		} else if (i < n)
			putchar(' ');
	}
	if (col != 0)
		putchar('\n');
}

static void
show(d)
	DATE *d;
{
	printf("%04d-%02d-%02d", d->year, d->month, d->day);
}

main(argc, argv)
	int argc;
	char **argv;
{
	char line[128], cmd[16], a[32], b[32];
	DATE d1, d2;
	long n, k;
	int m, y, got;

	if (argc > 1 && strcmp(argv[1], "-m") == 0)
		mflag = 1;
	while (fgets(line, sizeof line, stdin) != NULL) {
		got = sscanf(line, "%15s %31s %31s", cmd, a, b);
		if (got < 1)
			continue;
		switch (cmd[0]) {
		case 'd':
			if (strcmp(cmd, "dow") == 0) {
				if (got < 2 || !parsedate(a, &d1) || !valid(&d1))
					goto bad;
				show(&d1);
				printf(" is a %s\n", dnames[weekday(&d1)]);
			} else if (strcmp(cmd, "diff") == 0) {
				if (got < 3 || !parsedate(a, &d1) || !parsedate(b, &d2))
					goto bad;
				if (!valid(&d1) || !valid(&d2))
					goto bad;
				printf("%ld days\n", daynum(&d2) - daynum(&d1));
			} else
				goto bad;
			break;
		case 'a':
			if (got < 3 || !parsedate(a, &d1) || !valid(&d1))
				goto bad;
			k = strtol(b, NULL, 10);
			n = daynum(&d1) + k;
			d2.year = MAXYEAR;
			d2.month = 12;
			d2.day = 31;
			if (n < 0 || n > daynum(&d2))
				goto bad;
			show(&d1);
			printf(" %+ld = ", k);
			show(fromday(n));
			putchar('\n');
			break;
		case 'c':
			if (got < 3)
				goto bad;
			m = atoi(a);
			y = atoi(b);
			if (m < 1 || m > 12 || y < MINYEAR || y > MAXYEAR)
				goto bad;
			printmonth(m, y);
			break;
		case 'l':
			y = atoi(a);
			for (m = 0, n = y; n < y + 20; n++)
				if (ISLEAP(n))
					printf("%s%ld", m++ ? " " : "leap years: ", n);
			printf("%s\n", m ? "" : "no leap years");
			break;
		default:
		bad:
			nbad++;
			printf("bad command: %s", line);
			if (strchr(line, '\n') == NULL)
				putchar('\n');
		}
	}
	printf("%d bad command(s)\n", nbad);
	return nbad ? 1 : 0;
}
