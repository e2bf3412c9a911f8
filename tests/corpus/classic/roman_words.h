/*
 * roman_words.h - numbers to Roman numerals, back, and to English.
 */

#define TOKSIZE		32
#define WORDSIZE	256
#define MAXROMAN	3999
#define MAXWORDS	999999999999L

/* mode bits, one per letter of modeletters[] */
#define M_ROMAN		01
#define M_ARABIC	02
#define M_WORDS		04
#define M_ORDINAL	010

/* error codes: indexes into errmsgs[] */
#define E_OK		0
#define E_NUMBER	1
#define E_RANGE		2
#define E_CHAR		3
#define E_CANON		4
#define E_MIX		5
#define E_USAGE		6

#define NUMERALS	(sizeof numerals / sizeof numerals[0])

typedef struct numeral {
	char	*sym;
	int	val;
} Numeral;

typedef struct irregular {
	char	*cardinal;
	char	*ordinal;
} Irregular;

static char *ones[] = {
	"", "one", "two", "three", "four", "five", "six", "seven", "eight",
	"nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
	"sixteen", "seventeen", "eighteen", "nineteen",
};

static char *tens[] = {
	"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
	"eighty", "ninety",
};

static char *scales[] = { "", "thousand", "million", "billion" };

static Numeral numerals[] = {
	{ "M", 1000 }, { "CM", 900 }, { "D", 500 }, { "CD", 400 },
	{ "C", 100 }, { "XC", 90 }, { "L", 50 }, { "XL", 40 },
	{ "X", 10 }, { "IX", 9 }, { "V", 5 }, { "IV", 4 }, { "I", 1 },
};

static char romchars[] = "IVXLCDM";
static short romvals[] = { 1, 5, 10, 50, 100, 500, 1000 };

static Irregular irregular[] = {
	{ "one", "first" }, { "two", "second" }, { "three", "third" },
	{ "five", "fifth" }, { "eight", "eighth" }, { "nine", "ninth" },
	{ "twelve", "twelfth" }, { 0, 0 },
};

static char modeletters[] = "rawo";
static char *modenames[] = { "roman", "arabic", "words", "ordinal" };

static char *errmsgs[] = {
	"ok",
	"not a number",
	"out of range",
	"not a Roman numeral",
	"not in canonical form",
	"-a cannot be mixed with other modes",
	"usage: roman_words [-rawo]",
};

extern char *to_roman();
extern char *put();
extern char *say_small();
extern char *say();
extern char *ordinal();
int from_roman();
int romval();
