// Old-style C: implicit int, K&R definitions with any declarator, calls without prototypes and the default argument promotions.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-implicit-function-declaration -Wno-old-style-definition -Wno-missing-parameter-type -Wno-return-type -Wno-unused-parameter
// RUN:
// RUN: args=5
#include <stdio.h>
#include <stdlib.h>

typedef struct ele { int v; struct ele *next; } Ele;

extern report();
static counter;
int twice();

static skip(n) { return n + 1; }

Ele *new_ele(n)
int n;
{
  Ele *e = (Ele *) malloc(sizeof(Ele));
  e->v = n;
  e->next = 0;
  return e;
}

/* A char parameter receives the promoted int and keeps its low byte. */
narrow(c, s, f)
char c;
short s;
float f;
{
  return c * 1000 + s + (int) (f * 4.0f);
}

double mix(d, f, u) double d; float f; unsigned char u;
{
  return d + f + u;
}

static int sum(n, a) register n; int a[];
{
  register i, t = 0;
  for (i = 0; i < n; i++)
    t += a[i];
  return t;
}

static int add1(x) { return x + 1; }
static int sub1(x) { return x - 1; }

/* A function returning a pointer to a function, K&R style. */
int (*pick(which))()
int which;
{
  return which ? add1 : sub1;
}

twice(x) int x; { counter++; return 2 * x; }

report(label, value) char *label; long value;
{
  printf("%s=%ld\n", label, value);
}

main(argc, argv)
int argc;
char **argv;
{
  register k;
  static int table[4] = {1, 2, 3, 4};
  int base = argc > 1 ? atoi(argv[1]) : 2;
  Ele *e = new_ele(skip(base));
  float f = 2.75f;
  char big = 100;
  report("ele", (long) e->v);
  /* 300 passed to a char parameter: the callee keeps 300 mod 256 = 44. */
  report("narrow", (long) narrow(300, 70000, f));
  report("narrow2", (long) narrow(big, (short) -3, 0.5f));
  printf("mix=%.3f\n", mix(1.5, f, 511));
  report("sum", (long) sum(4, table));
  for (k = 0; k < 3; k++)
    report("pick", (long) (*pick(k & 1))(base + k));
  report("twice", (long) twice(twice(base)));
  report("counter", (long) counter);
  free(e);
  return 0;
}
