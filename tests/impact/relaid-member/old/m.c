struct pair { int a; int b; };
int pick(const struct pair *p) {
  int v = p->b;
  return v + 1;
}
