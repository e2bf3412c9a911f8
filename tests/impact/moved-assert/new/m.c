#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
/* A line added above: every __LINE__ below moves. */

int get(const int *p, int i) {
  assert(p != 0);
  return p[i];
}

int checked(int n) {
  if (n < 0) {
    fprintf(stderr, "negative\n");
    exit(2);
  }
  return n * 2;
}

int main(int argc, char **argv) {
  int a[3] = {1, 2, 3};
  int s = get(a, argc % 3) + checked(argc - 1);
  printf("%d\n", s);
  return 0;
}
