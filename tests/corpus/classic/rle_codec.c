// Classic run-length codec: K&R definitions with implicit int, an escape byte protocol, a CRC-16 table and mode and message tables in the header, function pointer parameters declared old style, an unsigned short parameter promoted, a decoder whose errors leave by goto, binary bytes on stdin and stdout.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: args=-e stdin=rle_codec.1.in
// RUN: args=-x stdin=rle_codec.1.in
// RUN: args=-d stdin=rle_codec.2.in
// RUN: args=-x stdin=rle_codec.3.in
// RUN: args=-d stdin="abc\x1b\x05xyz\x1b\x02"
// RUN: args=-d stdin="hello\x1b\x00\x12\x34"
// RUN: args=-c stdin="123456789"
// RUN: args=-q
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rle_codec.h"

static unsigned short crc;
static long nin, nout;
static int col;

unsigned short
crc16(c0, c)
	unsigned short c0;
	int c;
{
	return UPDCRC(c0, c);
}

putraw(c)
	int c;
{
	putchar(c);
	nout++;
}

/* one byte of the hex dump, with the offset at the start of each line */
puthex(c)
	int c;
{
	if (col == 0)
		printf("%06lx:", nout);
	printf(" %02x", c & 0xff);
	nout++;
	if (++col == PERLINE) {
		putchar('\n');
		col = 0;
	}
}

/* write a run of n bytes c */
flushrun(c, n, emit)
	int c, n;
	EMITTER emit;
{
	if (n == 0)
		return 0;
	if (n >= MINRUN || c == ESC) {
		(*emit)(ESC);
		(*emit)(n);
		(*emit)(c);
		return 3;
	}
	while (n-- > 0)
		(*emit)(c);
	return 1;
}

encode(emit)
	int (*emit)();
{
	register c;
	int prev = EOF, n = 0, runs = 0;

	while ((c = getchar()) != EOF) {
		crc = crc16(crc, c);
		nin++;
		if (c == prev && n < MAXRUN) {
			n++;
			continue;
		}
		if (flushrun(prev, n, emit) == 3)
			runs++;
		prev = c;
		n = 1;
	}
	if (flushrun(prev, n, emit) == 3)
		runs++;
	(*emit)(ESC);
	(*emit)(0);
	(*emit)(crc >> 8);
	(*emit)(crc & 0xff);
	return runs;
}

decode()
{
	register c;
	int n, b, hi, lo, err;

	for (;;) {
		if ((c = getchar()) == EOF)
			goto noend;
		if (c != ESC) {
			crc = crc16(crc, c);
			putraw(c);
			continue;
		}
		if ((n = getchar()) == EOF)
			goto trunc;
		if (n == 0)
			break;
		if ((b = getchar()) == EOF)
			goto trunc;
		while (n-- > 0) {
			crc = crc16(crc, b);
			putraw(b);
		}
	}
	hi = getchar();
	lo = getchar();
	if (hi == EOF || lo == EOF)
		goto trunc;
	if ((unsigned)(hi << 8 | lo) != crc) {
		err = E_CRC;
		goto fail;
	}
	if (getchar() != EOF) {
		err = E_JUNK;
		goto fail;
	}
	return E_OK;
trunc:
	err = E_TRUNC;
	goto fail;
noend:
	err = E_NOEND;
fail:
	printf("\nrle_codec: %s after %ld bytes\n", errmsg[err], nout);
	return err;
}

usage()
{
	register struct modetab *m;

	printf("usage: rle_codec mode < input\n");
	for (m = modes; m->flag != NULL; m++)
		printf("  %s  %s\n", m->flag, m->help);
	exit(2);
}

main(argc, argv)
	int argc;
	char **argv;
{
	register struct modetab *m;
	int c, runs, r;

	if (argc != 2)
		usage();
	for (m = modes; m->flag != NULL; m++)
		if (strcmp(m->flag, argv[1]) == 0)
			goto found;
	usage();
found:
	switch (m->mode) {
	case M_ENCODE:
		runs = encode(putraw);
		fprintf(stderr, "%ld bytes in, %ld out, %d runs\n", nin, nout, runs);
		break;
	case M_HEX:
		runs = encode(puthex);
		if (col != 0)
			putchar('\n');
		printf("%ld bytes in, %ld out, %d runs, crc 0x%04x",
		    nin, nout, runs, crc);
		if (nin > 0)
			printf(", %ld%%", nout * 100 / nin);
		putchar('\n');
		break;
	case M_DECODE:
		r = decode();
		fflush(stdout);
		fprintf(stderr, "crc 0x%04x\n", crc);
		return r;
	case M_CRC:
		while ((c = getchar()) != EOF) {
			crc = UPDCRC(crc, c);
			nin++;
		}
		printf("%ld bytes, crc16 0x%04x\n", nin, crc);
		break;
	}
	return 0;
}
