/* Trostanetski, Grumberg, Kroening (SAS 2017), Figure 4c: LoopUnrch2 -- NEW version (foo2).
 * The figure's foo2 is named foo in both versions; main's x is argc. */
#include <stdio.h>

static int print_result(int r) {
  printf("%d\n", r);
  return r;
}

int foo(int a, int b) {
  int c=0;
  if (a<0) {
    for (int i=1;
         i <= a; ++i)
      c += b;
  }
  return c;
}

int main(int x, char*argv[]) {
  //LoopUnrch2: foo is called with positive, increasing a and b
  int r = 0;
  (void)x; (void)argv;
  for (int i=1; i<=2; ++i)
    r += foo(i, i+1);
  return print_result(r);
}
