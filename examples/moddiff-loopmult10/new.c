/* Trostanetski, Grumberg, Kroening (SAS 2017), Figure 4a/4b: LoopMult10 -- NEW version (foo2).
 * The figure's foo2 is named foo in both versions; main's x is argc. */
#include <stdio.h>

static int print_result(int r) {
  printf("%d\n", r);
  return r;
}

int foo(int a, int b) {
  int c=0;
  for (int i=1; i<=a; ++i)
    c += b;
  return c;
}

int main(int x, char*argv[]) {
  //LoopMult10
  (void)argv;
  if (x>=10 && x<12)
    return print_result(foo(x,10));
  return print_result(0);
}
