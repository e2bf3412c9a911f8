/* Trostanetski, Grumberg, Kroening (SAS 2017), Figure 4a/4b: LoopMult2 -- NEW version (foo2).
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
  //LoopMult2
  (void)x; (void)argv;
  return print_result(foo(2,2));
}
