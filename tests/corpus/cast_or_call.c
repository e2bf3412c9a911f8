// A parenthesized call followed by a binary operator, which reads like a cast: (SQR(x))*y, (f(x)) - y, casts of casts (T)(int)(x), and offsetof in parentheses.
#include <stdio.h>
#include <stddef.h>

typedef double real;
struct cell {
  char tag;
  double value;
  int count;
};

double SQR(double);
double rd(double, double, double);
static int twice(int v) { return 2 * v; }
static int (*fp)(int) = twice;

double SQR(double v) { return v * v; }

double rd(double a, double b, double c) { return a * b + c; }

static int offset_of_count(int base) {
  return base + (int) (offsetof(struct cell, count));
}

int main(void) {
  double s = 1.5, ak = 2.0, cc = 1.25, q = 2.0, x;
  int n = 7, k;
  unsigned u = 3000000000u;
  x = (SQR(s * ak)) * rd(cc, q, 1.0) / 3.0;
  printf("%.6f\n", x);
  x = (SQR(s)) - ak * 2.0;
  printf("%.6f\n", x);
  k = (twice(n)) - n * 2 + (twice(3)) * 4;
  printf("%d\n", k);
  k = (fp(n)) + 1;
  printf("%d\n", k);
  x = (real)(int)(s * 3.0);
  printf("%.6f\n", x);
  x = ((u) <= 0x7fffffffu) ? (real)(int)(u) : (real)(u);
  printf("%.1f\n", x);
  k = twice((offsetof(struct cell, count)));
  printf("%d\n", k);
  printf("%d %d\n", offset_of_count(1), (int) (offsetof(struct cell, value)));
  return 0;
}
