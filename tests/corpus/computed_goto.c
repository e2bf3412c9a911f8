// GNU labels as values and computed goto: a threaded bytecode interpreter with a static dispatch table, label pointers in variables, and comparisons of label addresses.
// RUN:
// RUN: args=3
#include <stdio.h>
#include <stdlib.h>

enum { OP_PUSH, OP_ADD, OP_MUL, OP_DUP, OP_JNZ, OP_DEC, OP_PRINT, OP_HALT };

static int execute(const int *code, int trace) {
  static const void *const table[] = {&&op_push, &&op_add,   &&op_mul,   &&op_dup,
                                      &&op_jnz,  &&op_dec,   &&op_print, &&op_halt};
  int stack[32];
  int sp = 0;
  int steps = 0;
  const int *pc = code;
#define DISPATCH()                                                                       \
  do {                                                                                   \
    steps++;                                                                             \
    if (trace)                                                                           \
      printf("  [%d] op %d sp %d\n", (int) (pc - code), *pc, sp);                        \
    goto *table[*pc++];                                                                  \
  } while (0)
  DISPATCH();
op_push:
  stack[sp++] = *pc++;
  DISPATCH();
op_add:
  sp--;
  stack[sp - 1] += stack[sp];
  DISPATCH();
op_mul:
  sp--;
  stack[sp - 1] *= stack[sp];
  DISPATCH();
op_dup:
  stack[sp] = stack[sp - 1];
  sp++;
  DISPATCH();
op_jnz: {
  int target = *pc++;
  if (stack[sp - 1] != 0)
    pc = code + target;
  DISPATCH();
}
op_dec:
  stack[sp - 1]--;
  DISPATCH();
op_print:
  printf("top %d\n", stack[sp - 1]);
  DISPATCH();
op_halt:
  return steps * 1000 + (sp > 0 ? stack[sp - 1] : 0);
}

/* A label pointer kept in a variable and chosen at run time. */
static int classify(int x) {
  void *where = x < 0 ? &&negative : (x == 0 ? &&zero : &&positive);
  void *again = &&done;
  int r = 0;
  goto *where;
negative:
  r -= 100;
  goto *again;
zero:
  r += 7;
  goto *again;
positive:
  r += x * 2;
done:
  return r + (where == &&zero) * 1000;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  /* Pushes n, then counts down to 0, printing each value; then computes 6 * 7. */
  int prog[] = {OP_PUSH, 0, OP_PRINT, OP_DEC, OP_JNZ, 2, OP_PUSH, 6, OP_PUSH, 7, OP_MUL, OP_PRINT, OP_HALT};
  int i;
  prog[1] = n;
  printf("result %d\n", execute(prog, 0));
  int small[] = {OP_PUSH, 2, OP_DUP, OP_ADD, OP_PRINT, OP_HALT};
  printf("result %d\n", execute(small, 1));
  for (i = -2; i <= 2; i++)
    printf("classify(%d) = %d\n", i, classify(i));
  return 0;
}
