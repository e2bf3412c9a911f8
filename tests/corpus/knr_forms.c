// Old-style C: calls before the K&R definition, float/short/unsigned char parameters, function-pointer and array parameters declared in the K&R list, implicit int locals and recursion.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-implicit-function-declaration -Wno-old-style-definition -Wno-missing-parameter-type -Wno-return-type -Wno-sign-compare
// RUN:
// RUN: args=4 9
#include <stdio.h>
#include <stdlib.h>

float half();
double scale();
static apply();
long fold();

static const limit = 12;
static table[6] = {5, 3, 8, 1, 9, 2};

static int inc(v) int v; { return v + 1; }
static int neg(v) int v; { return -v; }

main(argc, argv)
char *argv[];
{
  register int i;
  auto total = 0;
  int a = argc > 1 ? atoi(argv[1]) : 3;
  int b = argc > 2 ? atoi(argv[2]) : 5;
  printf("half %.3f %.3f\n", half(7.0f), half((double) a));
  printf("scale %.3f\n", scale(a, (short) 40000, (unsigned char) -3, 0.25f));
  for (i = 0; i < 3; i++)
    total += apply(i & 1 ? neg : inc, b + i);
  printf("total %d\n", total);
  printf("fold %ld\n", fold(table, 6, 0L));
  printf("gcd %d\n", gcd(a * 6, b * 4));
  printf("limit %d\n", limit);
  return 0;
}

/* Called above through `float half();`: the argument arrives as a double and is
   narrowed to the declared float at the entry. */
float half(x)
float x;
{
  return x / 2;
}

double scale(n, s, u, f)
int n;
short s;
unsigned char u;
float f;
{
  return n * (double) s + u + f;
}

static apply(fn, v)
int (*fn)();
{
  return (*fn)(v) * 2;
}

long fold(values, count, acc)
int values[];
long acc;
{
  if (count == 0)
    return acc;
  return fold(values + 1, count - 1, acc * 3 + values[0]);
}

gcd(x, y)
{
  while (y != 0) {
    register t = x % y;
    x = y;
    y = t;
  }
  return x;
}
