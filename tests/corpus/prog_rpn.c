// Program: an RPN calculator reading tokens from stdin, with a stack, error handling and exit status.
// RUN: stdin="3 4 + 2 *\n"
// RUN: stdin="5 1 2 + 4 * + 3 -\n2 3 ^\n10 3 /\n"
// RUN: stdin="1 +\n"
// RUN: stdin="4 0 /\n"
// RUN: stdin="2.5 2 * neg dup *\n 7 2 % 9 sqrt\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static double stack[64];
static int sp;

static void push(double v) {
    if (sp == 64) { printf("error: stack overflow\n"); exit(2); }
    stack[sp++] = v;
}

static double pop(const char *op) {
    if (sp == 0) {
        printf("error: stack underflow at '%s'\n", op);
        exit(1);
    }
    return stack[--sp];
}

int main(void) {
    char tok[32];
    int line_tokens = 0;
    while (scanf("%31s", tok) == 1) {
        line_tokens++;
        char *end;
        double v = strtod(tok, &end);
        if (*end == '\0') { push(v); continue; }
        if (strcmp(tok, "dup") == 0) { double a = pop(tok); push(a); push(a); continue; }
        if (strcmp(tok, "neg") == 0) { push(-pop(tok)); continue; }
        if (strcmp(tok, "sqrt") == 0) { push(sqrt(pop(tok))); continue; }
        if (strlen(tok) != 1) { printf("error: unknown token '%s'\n", tok); return 3; }
        double b = pop(tok), a = pop(tok);
        switch (tok[0]) {
        case '+': push(a + b); break;
        case '-': push(a - b); break;
        case '*': push(a * b); break;
        case '/':
            if (b == 0) { printf("error: division by zero\n"); return 4; }
            push(a / b);
            break;
        case '%': push(fmod(a, b)); break;
        case '^': push(pow(a, b)); break;
        default: printf("error: unknown operator '%c'\n", tok[0]); return 3;
        }
    }
    printf("%d tokens, stack depth %d\n", line_tokens, sp);
    for (int i = 0; i < sp; i++) printf("[%d] %.10g\n", i, stack[i]);
    return 0;
}
