// Classic two-pass assembler and interpreter for a toy accumulator machine: opcode/operand-kind tables in the header, symbol table lookup(name, create), big switch dispatch, step limit, goto error exits.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=toy_vm.1.in
// RUN: stdin=toy_vm.2.in
// RUN: args=40 stdin=toy_vm.3.in
// RUN: args=-t stdin=toy_vm.4.in
// RUN: stdin=""
// RUN: stdin="  ldx 60\nloop: ldax 0\n  inx\n  jmp loop\n"
// RUN: stdin="  call f\n  halt\nf: call f\n"
// RUN: args=-t 0x stdin="halt\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "toy_vm.h"

static char source[MAXLINES][LINELEN];
static int nlines;
static Sym syms[MAXSYMS];
static int nsyms;
static Insn code[MAXCODE];
static int ncode;
static int image[MEMSIZE];	/* initial data, from .word lines */
static int ndata;
static int nerrors;
static int tflag;
static Machine m;

static
error(line, msg, what)
int line;
char *msg, *what;
{
	printf("line %d: %s", line, msg);
	if (what && *what)
		printf(" `%s'", what);
	putchar('\n');
	nerrors++;
}

/*
 * lookup: find a symbol; with create, enter it when it is new.
 */
Sym *
lookup(name, create)
char *name;
int create;
{
	register Sym *sp;

	for (sp = syms; sp < syms + nsyms; sp++)
		if (strcmp(sp->name, name) == 0)
			return sp;
	if (!create || nsyms >= MAXSYMS)
		return NULL;
	sp = &syms[nsyms++];
	strcpy(sp->name, name);
	sp->value = 0;
	sp->isdata = 0;
	return sp;
}

char *
skipblank(p)
register char *p;
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/*
 * token: copy the next word at *pp into buf (cut to TOKLEN-1
 * characters) and step past it.  Returns its length.
 */
token(pp, buf)
char **pp;
char *buf;
{
	register char *p, *q = buf;

	p = skipblank(*pp);
	while (*p && !isspace((unsigned char) *p)) {
		if (q < buf + TOKLEN - 1)
			*q++ = *p;
		p++;
	}
	*q = '\0';
	*pp = p;
	return q - buf;
}

/*
 * parse: split a line into label, opcode and operand.  Returns 0
 * for a line with nothing on it.
 */
parse(s, pl)
char *s;
register Parsed *pl;
{
	char tok[TOKLEN], *p, *c;
	int n;

	if ((c = strchr(s, ';')) != NULL)
		*c = '\0';
	pl->label[0] = pl->op[0] = pl->arg[0] = '\0';
	pl->extra = 0;
	p = s;
	if ((n = token(&p, tok)) == 0)
		return 0;
	if (tok[n - 1] == ':') {
		tok[n - 1] = '\0';
		strcpy(pl->label, tok);
		if (token(&p, tok) == 0)
			return 1;
	}
	strcpy(pl->op, tok);
	for (c = pl->op; *c; c++)
		*c = toupper((unsigned char) *c);
	token(&p, pl->arg);
	pl->extra = token(&p, tok) > 0;
	return 1;
}

static
isnum(s, vp)
char *s;
int *vp;
{
	char *end;
	long v;

	if (*s == '\0')
		return 0;
	v = strtol(s, &end, 10);
	if (*end != '\0' || v > BIGNUM || v < -BIGNUM)
		return 0;
	*vp = (int) v;
	return 1;
}

static
goodname(s)
register char *s;
{
	if (!ISNAME1(*s))
		return 0;
	while (*++s)
		if (!ISNAME(*s))
			return 0;
	return 1;
}

/*
 * pass1: give every label its address and lay out the data.
 */
pass1()
{
	register i;
	Parsed pl;
	Sym *sp;
	int isdata, v;

	for (i = 0; i < nlines; i++) {
		if (!parse(source[i], &pl))
			continue;
		isdata = strcmp(pl.op, ".WORD") == 0;
		if (pl.label[0]) {
			if (!goodname(pl.label))
				error(i + 1, "bad label", pl.label);
			else if (lookup(pl.label, 0) != NULL)
				error(i + 1, "label defined twice", pl.label);
			else if ((sp = lookup(pl.label, 1)) == NULL)
				error(i + 1, "too many labels", pl.label);
			else {
				sp->isdata = isdata;
				sp->value = isdata ? ndata : ncode;
			}
		}
		if (isdata) {
			if (!isnum(pl.arg, &v))
				error(i + 1, "bad value for .word", pl.arg);
			else if (ndata >= MEMSIZE)
				error(i + 1, "out of data memory", "");
			else
				image[ndata++] = v;
		} else if (pl.op[0]) {
			if (ncode >= MAXCODE)
				error(i + 1, "program too long", "");
			else
				code[ncode++].line = i + 1;
		}
	}
	return nerrors;
}

/*
 * pass2: assemble each instruction into the slot pass 1 gave it.
 */
pass2()
{
	register i;
	Parsed pl;
	Insn *ip = code;
	Sym *sp;
	char *msg, *what, msgbuf[48];
	int op, v;

	for (i = 0; i < nlines && ip < code + ncode; i++) {
		if (!parse(source[i], &pl) || pl.op[0] == '\0' || strcmp(pl.op, ".WORD") == 0)
			continue;
		what = pl.op;
		for (op = 0; op < NOPS; op++)
			if (strcmp(opnames[op], pl.op) == 0)
				break;
		if (op == NOPS) {
			msg = "unknown opcode";
			goto bad;
		}
		ip->op = op;
		ip->arg = v = 0;
		what = pl.arg;
		if (opkinds[op] == K_NONE) {
			if (pl.arg[0]) {
				msg = "unexpected operand";
				goto bad;
			}
		} else if (pl.arg[0] == '\0') {
			msg = "missing operand";
			what = opnames[op];
			goto bad;
		} else if (pl.extra) {
			msg = "junk after operand";
			goto bad;
		} else switch (opkinds[op]) {
		case K_IMM:
			if (!isnum(pl.arg, &v)) {
				msg = "bad number";
				goto bad;
			}
			break;
		case K_MEM:
		case K_CODE:
			if (opkinds[op] == K_MEM && isnum(pl.arg, &v)) {
				if (!INMEM(v)) {
					msg = "address out of range";
					goto bad;
				}
				break;
			}
			if ((sp = lookup(pl.arg, 0)) == NULL) {
				msg = "undefined symbol";
				goto bad;
			}
			if (sp->isdata != (opkinds[op] == K_MEM)) {
				sprintf(msgbuf, "%s wants %s operand, not", opnames[op],
				    kindnames[(int) opkinds[op]]);
				msg = msgbuf;
				goto bad;
			}
			v = sp->value;
			break;
		}
		ip->arg = v;
		ip++;
		continue;
	bad:
		error(i + 1, msg, what);
		ip++;
	}
	return nerrors;
}

static
trace(ip, mp)
Insn *ip;
Machine *mp;
{
	printf("%4ld %3d  %-5s", mp->steps, (int) (ip - code), opnames[ip->op]);
	if (opkinds[ip->op] != K_NONE)
		printf(" %4d", ip->arg);
	else
		printf("     ");
	printf("  acc=%d x=%d\n", mp->acc, mp->x);
}

/*
 * execute: run from address 0 until HALT, a fault or the step limit.
 */
execute(mp, limit)
register Machine *mp;
long limit;
{
	register Insn *ip;
	int a, why;

	memcpy(mp->mem, image, sizeof mp->mem);
	for (;;) {
		if (mp->steps >= limit) {
			mp->fault = mp->pc;
			return R_LIMIT;
		}
		if (mp->pc < 0 || mp->pc >= ncode) {
			mp->fault = mp->pc;
			return R_PC;
		}
		ip = &code[mp->pc++];
		mp->steps++;
		mp->counts[ip->op]++;
		a = ip->arg;
		switch (ip->op) {
		case HALT:	mp->pc--; why = R_HALT; goto stop;
		case NOP:	break;
		case LDI:	mp->acc = a; break;
		case LDA:	mp->acc = mp->mem[a]; break;
		case STA:	mp->mem[a] = mp->acc; break;
		case ADD:	mp->acc += mp->mem[a]; break;
		case ADDI:	mp->acc += a; break;
		case SUB:	mp->acc -= mp->mem[a]; break;
		case MUL:	mp->acc *= mp->mem[a]; break;
		case DIV:
		case MOD:
			if (mp->mem[a] == 0) {
				why = R_DIVZ;
				goto stop;
			}
			if (mp->mem[a] == -1)
				mp->acc = ip->op == DIV ? -mp->acc : 0;
			else if (ip->op == DIV)
				mp->acc /= mp->mem[a];
			else
				mp->acc %= mp->mem[a];
			break;
		case LDX:	mp->x = a; break;
		case STX:	mp->mem[a] = mp->x; break;
		case INX:	mp->x++; break;
		case DEX:	mp->x--; break;
		case TAX:	mp->x = mp->acc; break;
		case TXA:	mp->acc = mp->x; break;
		case LDAX:
		case STAX:
			a += mp->x;
			if (!INMEM(a)) {
				why = R_ADDR;
				goto stop;
			}
			if (ip->op == LDAX)
				mp->acc = mp->mem[a];
			else
				mp->mem[a] = mp->acc;
			break;
		case JMP:	mp->pc = a; break;
		case JZ:	if (mp->acc == 0) mp->pc = a; break;
		case JNZ:	if (mp->acc != 0) mp->pc = a; break;
		case JN:	if (mp->acc < 0) mp->pc = a; break;
		case CALL:
			if (mp->rsp >= RDEPTH) {
				why = R_OVER;
				goto stop;
			}
			mp->rstack[mp->rsp++] = mp->pc;
			mp->pc = a;
			break;
		case RET:
			if (mp->rsp <= 0) {
				why = R_UNDER;
				goto stop;
			}
			mp->pc = mp->rstack[--mp->rsp];
			break;
		case OUT:	printf("%d\n", mp->acc); break;
		case OUTC:	putchar(isprint(mp->acc & 0177) || mp->acc == '\n' ? mp->acc & 0177 : '?'); break;
		}
		if (tflag)
			trace(ip, mp);
	}
stop:
	mp->fault = ip - code;
	if (tflag)
		trace(ip, mp);
	return why;
}

static
pct(part, ratio)
char *part;
float ratio;
{
	printf("%s %.1f%% of the step limit\n", part, ratio * 100.0);
}

static
summary(mp, why, limit)
Machine *mp;
int why;
long limit;
{
	register i;
	register Sym *sp;
	int n = 0;

	printf("-- %s", endings[why]);
	if (why != R_LIMIT && why != R_PC)
		printf(" at %d (line %d)", mp->fault, code[mp->fault].line);
	printf(" after %ld steps\n", mp->steps);
	pct("used", (float) mp->steps / limit);
	for (i = 0; i < NOPS; i++)
		if (mp->counts[i]) {
			printf("%s%s:%ld", n++ % 6 ? " " : "", opnames[i], mp->counts[i]);
			if (n % 6 == 0)
				putchar('\n');
		}
	if (n % 6)
		putchar('\n');
	printf("acc=%d x=%d pc=%d rsp=%d\n", mp->acc, mp->x, mp->pc, mp->rsp);
	for (sp = syms; sp < syms + nsyms; sp++)
		if (sp->isdata)
			printf("  %-8s [%2d] = %d\n", sp->name, sp->value, mp->mem[sp->value]);
}

main(argc, argv)
int argc;
char **argv;
{
	long limit = DEFLIMIT;
	char *end;
	int why;

	while (--argc > 0) {
		if (strcmp(*++argv, "-t") == 0) {
			tflag++;
			continue;
		}
		limit = strtol(*argv, &end, 10);
		if (*end != '\0' || end == *argv || limit <= 0 || limit > BIGNUM)
			goto usage;
	}
	while (nlines < MAXLINES && fgets(source[nlines], LINELEN, stdin) != NULL)
		nlines++;
	pass1();
	pass2();
	if (nerrors)
		goto failed;
	if (ncode == 0) {
		printf("toy_vm: no instructions\n");
		exit(1);
	}
	printf("-- %d instructions, %d data words, %d symbols\n", ncode, ndata, nsyms);
	why = execute(&m, limit);
	summary(&m, why, limit);
	return why == R_HALT ? 0 : 3;
failed:
	printf("-- %d error%s\n", nerrors, nerrors == 1 ? "" : "s");
	return 1;
usage:
	printf("usage: toy_vm [-t] [steplimit]\n");
	return 2;
}
