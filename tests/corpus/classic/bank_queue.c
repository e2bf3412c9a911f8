// Classic discrete event simulation: K&R definitions with implicit int, a sorted linked event list, a circular customer queue, a home-made LCG for deterministic runs, tables of service times in the header, a switch over event kinds, goto when the event pool is exhausted.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN:
// RUN: args=1 480 7
// RUN: args=3 480 7
// RUN: args=2 120 99 -v
// RUN: args=9 10 1
// RUN: args=4 0 5
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bank_queue.h"

static unsigned long seed = 1;
static EVENT pool[MAXEVENTS];
static EVENT *freelist, *events;
static CUSTOMER queue[MAXQUEUE];
static int qhead, qlen;
static CUSTOMER *busy[MAXTELLERS];
static CUSTOMER serving[MAXTELLERS];
static int ntellers = 2;
static long closing = 480;
static int verbose;
static long totwait, maxwait, served, turned, maxq;
static long bykind[3];

long
uniform(lo, hi)
	long lo, hi;
{
	seed = (seed * LCG_A + LCG_C) % LCG_M;
	return lo + (long)((seed >> 16) % (unsigned long)(hi - lo + 1));
}

EVENT *
newevent()
{
	EVENT *e = freelist;

	if (e != NULL)
		freelist = e->next;
	return e;
}

/* insert in time order; among equal times, departures first */
schedule(time, kind, teller)
	long time;
	int kind, teller;
{
	register EVENT *e, **pp;

	if ((e = newevent()) == NULL)
		return 0;
	e->time = time;
	e->kind = kind;
	e->teller = teller;
	for (pp = &events; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->time > time || ((*pp)->time == time && (*pp)->kind > kind))
			break;
	e->next = *pp;
	*pp = e;
	return 1;
}

/* teller t takes customer c at time now */
serve(t, c, now)
	int t;
	CUSTOMER *c;
	long now;
{
	long wait = now - c->arrived;
	int *range = servtime[c->kind];

	serving[t] = *c;
	busy[t] = &serving[t];
	totwait += wait;
	if (wait > maxwait)
		maxwait = wait;
	if (verbose)
		printf("%4ld: teller %d serves #%d (%s) after %ld\n", now, t, c->id,
		    kindname[c->kind], wait);
	return schedule(now + uniform((long)range[0], (long)range[1]), E_DEPART, t);
}

static int
pickkind()
{
	long r = uniform(0L, 9L);
	register int k;

	for (k = 0; k < 2; k++) {
		if (r < kindfreq[k])
			return k;
		r -= kindfreq[k];
	}
	return 2;
}

main(argc, argv)
	int argc;
	char **argv;
{
	register int i;
	EVENT *e;
	CUSTOMER c;
	int nextid = 1, t, free_t;
	long now = 0;

	if (argc > 1)
		ntellers = atoi(argv[1]);
	if (argc > 2)
		closing = atol(argv[2]);
	if (argc > 3)
		seed = strtoul(argv[3], NULL, 10);
	if (argc > 4 && strcmp(argv[4], "-v") == 0)
		verbose = 1;
	if (ntellers < 1 || ntellers > MAXTELLERS) {
		printf("tellers: 1 to %d\n", MAXTELLERS);
		return 2;
	}
	for (i = 0; i < MAXEVENTS - 1; i++)
		pool[i].next = &pool[i + 1];
	freelist = &pool[0];
	if (!schedule(uniform(0L, 4L), E_ARRIVE, -1) || !schedule(closing, E_CLOSE, -1))
		goto exhausted;
	while ((e = events) != NULL) {
		events = e->next;
		now = e->time;
		switch (e->kind) {
		case E_ARRIVE:
			c.id = nextid++;
			c.arrived = now;
			c.kind = pickkind();
			bykind[c.kind]++;
			for (free_t = -1, t = 0; t < ntellers; t++)
				if (busy[t] == NULL) {
					free_t = t;
					break;
				}
			if (free_t >= 0) {
				if (!serve(free_t, &c, now))
					goto exhausted;
			} else if (qlen < MAXQUEUE) {
				queue[(qhead + qlen++) % MAXQUEUE] = c;
				if (qlen > maxq)
					maxq = qlen;
			} else
				turned++;
			if (now < closing && !schedule(now + uniform(1L, 4L), E_ARRIVE, -1))
				goto exhausted;
			break;
		case E_DEPART:
			served++;
			busy[e->teller] = NULL;
			if (qlen > 0) {
				c = queue[qhead];
				qhead = (qhead + 1) % MAXQUEUE;
				qlen--;
				if (!serve(e->teller, &c, now))
					goto exhausted;
			}
			break;
		case E_CLOSE:
			if (verbose)
				printf("%4ld: doors close, %d waiting\n", now, qlen);
			/* arrivals already scheduled past closing are dropped */
			break;
		}
		if (verbose && e->kind != E_ARRIVE && e->kind != E_DEPART)
			printf("%4ld: %s\n", now, evname[e->kind]);
		e->next = freelist;
		freelist = e;
	}
	printf("tellers %d, closing at %ld\n", ntellers, closing);
	printf("customers %d: %ld deposit, %ld withdrawal, %ld loan\n", nextid - 1,
	    bykind[0], bykind[1], bykind[2]);
	printf("served %ld, turned away %ld, last departure %ld\n", served, turned, now);
	printf("wait: total %ld, max %ld, mean %ld.%02ld\n", totwait, maxwait,
	    served ? totwait / served : 0L, served ? totwait * 100 / served % 100 : 0L);
	printf("longest queue %ld\n", maxq);
	return 0;
exhausted:
	printf("event pool exhausted at time %ld\n", now);
	return 1;
}
