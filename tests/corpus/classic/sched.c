// Classic process scheduler simulation: K&R definitions with implicit int, doubly linked Ele/List structures built by new_ele()/new_list(), float and short parameters promoted, command and priority tables in the header, a switch over commands read with scanf, gotos to skip bad input and to retry.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: args=2 1 1 stdin=sched.1.in
// RUN: args=1 2 3 -t stdin=sched.2.in
// RUN: args=0 0 0 stdin="6\n7\n"
// RUN: args=3 3 3 stdin="7\n"
// RUN: args=1 1 stdin="7\n"
// RUN: args=2 0 1 stdin=sched.3.in
// RUN: args=0 1 0 -t stdin="1 3\n5\n5\n5\n2 3 0.5\n9\n1 x\n6\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched.h"

static List *prio_queue[MAXPRIO + 1];	/* [0] holds the blocked jobs */
static Ele *cur_proc;
static int alloc_proc_num;
static int num_finished, on_line;
static int trace;

Ele *
new_ele(n)
	int n;
{
	register Ele *e;

	e = (Ele *)malloc(sizeof(Ele));
	if (e == NULL) {
		printf("out of memory\n");
		exit(1);
	}
	e->next = e->prev = NULL;
	e->val = n;
	e->prio = 0;
	e->quanta = e->total = 0;
	return e;
}

List *
new_list()
{
	register List *l;

	l = (List *)malloc(sizeof(List));
	if (l == NULL) {
		printf("out of memory\n");
		exit(1);
	}
	l->first = l->last = NULL;
	l->mem_count = 0;
	return l;
}

List *
append_ele(l, e)
	List *l;
	Ele *e;
{
	if (l == NULL)
		l = new_list();
	e->prev = l->last;
	e->next = NULL;
	if (l->last != NULL)
		l->last->next = e;
	else
		l->first = e;
	l->last = e;
	l->mem_count++;
	return l;
}

/* the n'th element, counting from 1 */
Ele *
find_nth(l, n)
	List *l;
	int n;
{
	register Ele *e;

	if (l == NULL || n < 1)
		return NULL;
	for (e = l->first; e != NULL && n > 1; e = e->next, n--)
		;
	return e;
}

List *
del_ele(l, e)
	register List *l;
	register Ele *e;
{
	if (l == NULL || e == NULL)
		return NULL;
	if (e->next != NULL)
		e->next->prev = e->prev;
	else
		l->last = e->prev;
	if (e->prev != NULL)
		e->prev->next = e->next;
	else
		l->first = e->next;
	l->mem_count--;
	e->next = e->prev = NULL;
	return l;
}

free_ele(e)
	Ele *e;
{
	free(e);
	return 0;
}

/* the current job is the head of the highest nonempty ready queue */
schedule()
{
	register i;

	cur_proc = NULL;
	for (i = MAXPRIO; i > 0; i--)
		if (!EMPTY(prio_queue[i])) {
			cur_proc = prio_queue[i]->first;
			return i;
		}
	return 0;
}

put_end(prio, e)
	int prio;
	Ele *e;
{
	prio_queue[prio] = append_ele(prio_queue[prio], e);
}

add_process(prio)
	int prio;
{
	Ele *e;

	e = new_ele(++alloc_proc_num);
	e->prio = prio;
	put_end(prio, e);
	schedule();
}

finished(e)
	Ele *e;
{
	static const maxline = MAXLINE;

	if (on_line == maxline) {
		putchar('\n');
		on_line = 0;
	}
	printf("%s%d", on_line ? " " : "", e->val);
	if (e->total > 0)
		printf("(%d)", e->total);
	on_line++;
	num_finished++;
}

finish_process()
{
	Ele *e;

	schedule();
	if ((e = cur_proc) == NULL)
		return 0;
	del_ele(prio_queue[e->prio], e);
	finished(e);
	free_ele(e);
	schedule();
	return 1;
}

finish_all_processes()
{
	register n = 0;

retry:
	if (finish_process()) {
		n++;
		goto retry;
	}
	return n;
}

/* a job that has waited moves up one level */
upgrade_process_prio(prio, ratio)
	int prio;
	float ratio;
{
	register Ele *e;
	register List *src;
	int n;

	if (prio < 1 || prio >= MAXPRIO || ratio < 0.0 || ratio > 1.0)
		return -1;
	src = prio_queue[prio];
	if (EMPTY(src))
		return 0;
	n = RATIO_INDEX(ratio, src->mem_count);
	if (n > src->mem_count)
		n = src->mem_count;
	e = find_nth(src, n);
	del_ele(src, e);
	e->prio = prio + 1;
	e->quanta = 0;
	put_end(prio + 1, e);
	schedule();
	return e->val;
}

block_process()
{
	Ele *e;

	schedule();
	if ((e = cur_proc) == NULL)
		return 0;
	del_ele(prio_queue[e->prio], e);
	prio_queue[BLOCKPRIO] = append_ele(prio_queue[BLOCKPRIO], e);
	schedule();
	return e->val;
}

unblock_process(ratio)
	float ratio;
{
	register List *b = prio_queue[BLOCKPRIO];
	Ele *e;
	int n;

	if (ratio < 0.0 || ratio > 1.0)
		return -1;
	if (EMPTY(b))
		return 0;
	n = RATIO_INDEX(ratio, b->mem_count);
	if (n > b->mem_count)
		n = b->mem_count;
	e = find_nth(b, n);
	del_ele(b, e);
	put_end(e->prio, e);
	schedule();
	return e->val;
}

/* the current job goes to the back of its queue, or down one level
   when it has used up its patience there */
quantum_expire()
{
	Ele *e;
	short lim;

	schedule();
	if ((e = cur_proc) == NULL)
		return 0;
	del_ele(prio_queue[e->prio], e);
	e->quanta++;
	e->total++;
	lim = patience[e->prio];
	if (e->quanta >= lim && e->prio > 1) {
		e->prio--;
		e->quanta = 0;
	}
	put_end(e->prio, e);
	schedule();
	return e->val;
}

show_queue(l, prio)
	List *l;
	short prio;
{
	register Ele *e;

	printf("  %-7s:", prioname[prio]);
	if (l != NULL)
		for (e = l->first; e != NULL; e = e->next)
			printf(" %d", e->val);
	putchar('\n');
}

endline()
{
	if (on_line) {
		putchar('\n');
		on_line = 0;
	}
}

tracecmd(cmd, res)
	char cmd;
	int res;
{
	endline();
	printf("[%s -> %d; running %d]\n", cmdname[(int)cmd], res,
	    cur_proc != NULL ? cur_proc->val : 0);
}

main(argc, argv)
	int argc;
	char **argv;
{
	int cmd, prio, res = 0, i, n;
	float ratio;
	int c;
	char **ap;

	if (argc < MAXPRIO + 1) {
		printf("usage: sched low medium high [-t] < commands\n");
		exit(1);
	}
	if (argc > MAXPRIO + 1 && strcmp(argv[MAXPRIO + 1], "-t") == 0)
		trace = 1;
	for (i = BLOCKPRIO; i <= MAXPRIO; i++)
		prio_queue[i] = new_list();
	for (ap = argv + 1, prio = 1; prio <= MAXPRIO; prio++, ap++) {
		n = atoi(*ap);
		for (i = 0; i < n; i++)
			add_process(prio);
	}
	while (scanf("%d", &cmd) == 1) {
		if (cmd < 1 || cmd > MAXCMD)
			goto bad;
		prio = 0;
		ratio = 0.0;
		if (nargs[cmd] == 2 && scanf("%d", &prio) != 1)
			goto bad;
		if (nargs[cmd] == 2 && scanf("%f", &ratio) != 1)
			goto bad;
		if (nargs[cmd] == 1 && scanf("%d", &prio) != 1)
			goto bad;
		switch (cmd) {
		case NEW_JOB:
			if (prio < 1 || prio > MAXPRIO)
				goto bad;
			add_process(prio);
			res = alloc_proc_num;
			break;
		case UPGRADE_PRIO:
			res = upgrade_process_prio(prio, ratio);
			break;
		case BLOCK:
			res = block_process();
			break;
		case UNBLOCK:
			/* the argument is a ratio in per cent */
			res = unblock_process(prio / (float)100);
			break;
		case QUANTUM_EXPIRE:
			res = quantum_expire();
			break;
		case FINISH:
			res = finish_process();
			break;
		case FLUSH:
			res = finish_all_processes();
			break;
		}
		if (trace)
			tracecmd(cmd, res);
		continue;
bad:
		endline();
		printf("bad command %d ignored\n", cmd);
		while ((c = getchar()) != '\n' && c != EOF)
			;
	}
	endline();
	printf("%d finished, %d created\n", num_finished, alloc_proc_num);
	for (i = MAXPRIO; i >= BLOCKPRIO; i--)
		if (!EMPTY(prio_queue[i]))
			show_queue(prio_queue[i], (short)i);
	return 0;
}
