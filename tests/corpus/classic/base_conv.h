/*
 * base_conv.h - number base conversion in the manner of the old
 * "conv" utilities: digits tables, Roman-style and word outputs left out,
 * but binary, octal, decimal, hex and any base from 2 to 36, with
 * grouping of digits and signed and unsigned readings.
 */

#define MAXDIGITS	70

static char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
static char updigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* prefixes recognised on input, and the base each gives */
static char *prefixes[] = { "0x", "0X", "0b", "0B", "0o", "0O", 0 };
static int prefbase[] = { 16, 16, 2, 2, 8, 8 };

/* grouping of output digits by base: every 4 for 2 and 16, 3 otherwise */
#define GROUP(b)	((b) == 2 || (b) == 16 ? 4 : 3)

typedef struct {
	int base;
	int upper;
	int group;		/* 0: no grouping */
	int width;		/* for binary: bits shown */
} FMT;

extern char *convert();
int digitval();
int parse();
