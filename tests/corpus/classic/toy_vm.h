/*
 * toy_vm.h - assembler and interpreter for a toy accumulator machine.
 *
 * The machine has an accumulator, an index register X, a program
 * counter, MEMSIZE words of data memory and a small return stack.
 * Code and data live apart: labels on .word lines name data cells,
 * labels on instructions name code addresses.
 */

#define MAXLINES	64
#define LINELEN		100
#define TOKLEN		16
#define MAXSYMS		48
#define MAXCODE		64
#define MEMSIZE		64
#define RDEPTH		8
#define DEFLIMIT	1000L
#define BIGNUM		1000000L

/* opcodes: indexes into opnames[] and opkinds[] */
#define HALT	0
#define NOP	1
#define LDI	2
#define LDA	3
#define STA	4
#define ADD	5
#define ADDI	6
#define SUB	7
#define MUL	8
#define DIV	9
#define MOD	10
#define LDX	11
#define STX	12
#define INX	13
#define DEX	14
#define TAX	15
#define TXA	16
#define LDAX	17
#define STAX	18
#define JMP	19
#define JZ	20
#define JNZ	21
#define JN	22
#define CALL	23
#define RET	24
#define OUT	25
#define OUTC	26
#define NOPS	27

/* operand kinds: indexes into kindnames[] */
#define K_NONE	0
#define K_IMM	1
#define K_MEM	2
#define K_CODE	3

/* how a run ends: indexes into endings[] */
#define R_HALT	0
#define R_LIMIT	1
#define R_PC	2
#define R_DIVZ	3
#define R_ADDR	4
#define R_OVER	5
#define R_UNDER	6

#define ISNAME1(c)	(isalpha((unsigned char) (c)) || (c) == '_')
#define ISNAME(c)	(isalnum((unsigned char) (c)) || (c) == '_')
#define INMEM(a)	((a) >= 0 && (a) < MEMSIZE)

typedef struct insn {
	short	op;
	short	line;		/* source line, for messages */
	int	arg;
} Insn;

typedef struct sym {
	char	name[TOKLEN];
	int	value;
	char	isdata;
} Sym;

typedef struct parsed {
	char	label[TOKLEN];
	char	op[TOKLEN];
	char	arg[TOKLEN];
	char	extra;		/* something follows the operand */
} Parsed;

typedef struct machine {
	int	acc, x, pc;
	int	fault;		/* address of the instruction that stopped it */
	long	steps;
	int	mem[MEMSIZE];
	int	rstack[RDEPTH];
	int	rsp;
	long	counts[NOPS];
} Machine;

static char *opnames[] = {
	"HALT", "NOP", "LDI", "LDA", "STA", "ADD", "ADDI", "SUB", "MUL",
	"DIV", "MOD", "LDX", "STX", "INX", "DEX", "TAX", "TXA", "LDAX",
	"STAX", "JMP", "JZ", "JNZ", "JN", "CALL", "RET", "OUT", "OUTC",
};

static char opkinds[] = {
	K_NONE, K_NONE, K_IMM, K_MEM, K_MEM, K_MEM, K_IMM, K_MEM, K_MEM,
	K_MEM, K_MEM, K_IMM, K_MEM, K_NONE, K_NONE, K_NONE, K_NONE, K_MEM,
	K_MEM, K_CODE, K_CODE, K_CODE, K_CODE, K_CODE, K_NONE, K_NONE, K_NONE,
};

static char *kindnames[] = { "no", "an immediate", "a memory", "a code" };

static char *endings[] = {
	"halted",
	"step limit reached",
	"program counter out of range",
	"division by zero",
	"address out of range",
	"return stack overflow",
	"return stack underflow",
};

extern Sym *lookup();
extern char *skipblank();
int token();
int parse();
int pass1();
int pass2();
int execute();
