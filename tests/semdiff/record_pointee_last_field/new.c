struct S { int a, b, c, d, e; };
int get(struct S *s) { return s->e > 1 ? 1 : 0; }
