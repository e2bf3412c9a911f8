struct pair { int x; int a; int b; };
int pick(const struct pair *p) {
  int v = p->a * 1;
  return v + 1;
}
