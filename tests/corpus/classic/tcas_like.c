// Classic decision logic in the style of the TCAS benchmark: K&R definitions with implicit int, many small functions over global inputs with nested conditionals and short-circuit logic, threshold, name and range tables in the header, a table of pointers to the globals, strtol checking with gotos, short and char parameters promoted.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: args=958 1 1 2597 574 4253 0 399 400 0 1 1
// RUN: args=700 1 1 5000 -100 4300 2 1000 1200 0 2 0
// RUN: args=-v 601 1 0 4000 0 3500 1 700 900 0 1 0
// RUN: args=-v 650 1 1 1000 500 2000 3 900 400 0 2 1
// RUN: args=1 2 3
// RUN: args=958 1 1 2597 574 4253 7 399 400 0 0 1
// RUN: args=- stdin=tcas_like.1.in
// RUN: args=-v - stdin=tcas_like.2.in
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcas_like.h"

static int Cur_Vertical_Sep;
static int High_Confidence;
static int Two_of_Three_Reports_Valid;
static int Own_Tracked_Alt;
static int Own_Tracked_Alt_Rate;	/* ft/min, negative when descending */
static int Other_Tracked_Alt;
static int Alt_Layer_Value;		/* 0 .. 3 */
static int Up_Separation;
static int Down_Separation;
static int Other_RAC;
static int Other_Capability;
static int Climb_Inhibit;

static int *input_var[NINPUTS] = {
	&Cur_Vertical_Sep, &High_Confidence, &Two_of_Three_Reports_Valid,
	&Own_Tracked_Alt, &Own_Tracked_Alt_Rate, &Other_Tracked_Alt,
	&Alt_Layer_Value, &Up_Separation, &Down_Separation,
	&Other_RAC, &Other_Capability, &Climb_Inhibit,
};

static int verbose;
static int counts[3];

ALIM()
{
	return Positive_RA_Alt_Thresh[Alt_Layer_Value];
}

Inhibit_Biased_Climb()
{
	return Climb_Inhibit ? Up_Separation + NOZCROSS : Up_Separation;
}

Own_Below_Threat()
{
	return Own_Tracked_Alt < Other_Tracked_Alt;
}

Own_Above_Threat()
{
	return Other_Tracked_Alt < Own_Tracked_Alt;
}

Non_Crossing_Biased_Climb()
{
	int upward_preferred;
	int result;

	upward_preferred = Inhibit_Biased_Climb() > Down_Separation;
	if (upward_preferred)
		result = !Own_Below_Threat()
		    || (Own_Below_Threat() && !(Down_Separation >= ALIM()));
	else
		result = Own_Above_Threat() && Cur_Vertical_Sep >= MINSEP
		    && Up_Separation >= ALIM();
	return result;
}

Non_Crossing_Biased_Descend()
{
	int upward_preferred;
	int result;

	upward_preferred = Inhibit_Biased_Climb() > Down_Separation;
	if (upward_preferred)
		result = Own_Below_Threat() && Cur_Vertical_Sep >= MINSEP
		    && Down_Separation >= ALIM();
	else
		result = !Own_Above_Threat()
		    || (Own_Above_Threat() && Up_Separation >= ALIM());
	return result;
}

/* the intruder announced nothing that would fight our advisory */
intent_ok(adv)
	int adv;
{
	if (Other_Capability != TCAS_TA)
		return 1;
	if (!Two_of_Three_Reports_Valid)
		return 0;
	switch (Other_RAC) {
	case NO_INTENT:
		return 1;
	case DO_NOT_CLIMB:
		return adv != DOWNWARD_RA;
	case DO_NOT_DESCEND:
		return adv != UPWARD_RA;
	}
	return 0;
}

show(name, v)
	char *name;
	int v;
{
	if (verbose)
		printf("  %-28s %d\n", name, v);
}

alt_sep_test()
{
	int enabled, tcas_equipped, need_upward_RA, need_downward_RA;
	int alt_sep = UNRESOLVED;

	enabled = High_Confidence && ABS(Own_Tracked_Alt_Rate) <= OLEV
	    && Cur_Vertical_Sep > MAXALTDIFF;
	tcas_equipped = Other_Capability == TCAS_TA;
	show("enabled", enabled);
	show("tcas_equipped", tcas_equipped);
	if (!enabled)
		goto out;
	need_upward_RA = Non_Crossing_Biased_Climb() && Own_Below_Threat();
	need_downward_RA = Non_Crossing_Biased_Descend() && Own_Above_Threat();
	show("need_upward_RA", BOOL(need_upward_RA));
	show("need_downward_RA", BOOL(need_downward_RA));
	if (need_upward_RA && need_downward_RA)
		goto out;	/* contradictory: leave it to the pilot */
	if (need_upward_RA)
		alt_sep = UPWARD_RA;
	else if (need_downward_RA)
		alt_sep = DOWNWARD_RA;
	if (alt_sep != UNRESOLVED && !intent_ok(alt_sep)) {
		show("intent conflict", 1);
		alt_sep = UNRESOLVED;
	}
out:
	return alt_sep;
}

/* how hard to climb or descend */
rate_strength(adv, margin)
	int adv;
	long margin;
{
	register i;

	if (adv == UNRESOLVED)
		return 0;
	for (i = 0; i < NRATES - 1; i++)
		if (margin >= rate_margin[i])
			break;
	return rate_table[i];
}

/* preventive when we already move the advised way, else corrective */
char *
sense(adv, rate)
	char adv;
	short rate;
{
	if (adv == UPWARD_RA)
		return rate >= 0 ? "preventive" : "corrective";
	if (adv == DOWNWARD_RA)
		return rate <= 0 ? "preventive" : "corrective";
	return "";
}

/* a number from s into *vp, within the range of input i */
getnum(s, i, vp)
	char *s;
	int i;
	int *vp;
{
	char *end;
	long v;
	register struct input *in = inputs + i;

	v = strtol(s, &end, 10);
	if (end == s || *end != '\0')
		goto notnum;
	if (v < in->min || v > in->max)
		goto range;
	*vp = (int)v;
	return 0;
notnum:
	printf("%s: not a number: %s\n", in->name, s);
	return -1;
range:
	printf("%s: %ld out of range %ld..%ld\n", in->name, v, in->min, in->max);
	return -1;
}

/* run the logic on the current inputs and print the advisory */
advise()
{
	int adv, margin;

	adv = alt_sep_test();
	counts[adv]++;
	if (adv == UPWARD_RA)
		margin = Up_Separation - ALIM();
	else
		margin = Down_Separation - ALIM();
	printf("%d %s", adv, advname[adv]);
	if (adv != UNRESOLVED)
		printf(" %s %d", sense(adv, Own_Tracked_Alt_Rate),
		    rate_strength(adv, (long)margin));
	putchar('\n');
	return adv;
}

/* one set of inputs per line of stdin */
batch()
{
	char line[MAXLINE], *fld[NINPUTS], *p;
	int lineno = 0, n, i;

	while (fgets(line, sizeof line, stdin) != NULL) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		n = 0;
		for (p = strtok(line, " \t\n"); p != NULL; p = strtok(NULL, " \t\n"))
			if (n++ < NINPUTS)
				fld[n - 1] = p;
		if (n != NINPUTS) {
			printf("%d: %d fields, %d needed\n", lineno, n, NINPUTS);
			continue;
		}
		for (i = 0; i < NINPUTS; i++)
			if (getnum(fld[i], i, input_var[i]) < 0)
				goto bad;
		if (verbose)
			printf("-- line %d\n", lineno);
		else
			printf("%d: ", lineno);
		advise();
		continue;
bad:
		printf("%d: line ignored\n", lineno);
	}
	printf("%d unresolved, %d up, %d down\n", counts[UNRESOLVED],
	    counts[UPWARD_RA], counts[DOWNWARD_RA]);
	return 0;
}

main(argc, argv)
	int argc;
	char **argv;
{
	register i;

	if (argc > 1 && strcmp(argv[1], "-v") == 0) {
		verbose = 1;
		argc--;
		argv++;
	}
	if (argc == 2 && strcmp(argv[1], "-") == 0)
		return batch();
	if (argc != NINPUTS + 1) {
		printf("error: %d inputs given, %d needed:\n", argc - 1, NINPUTS);
		for (i = 0; i < NINPUTS; i++)
			printf("  %s\n", inputs[i].name);
		exit(3);
	}
	for (i = 0; i < NINPUTS; i++)
		if (getnum(argv[i + 1], i, input_var[i]) < 0)
			exit(3);
	return advise();
}
