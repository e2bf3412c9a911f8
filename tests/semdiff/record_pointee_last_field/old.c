/* Only the last field, past the first 16 bytes of the record, decides. */
struct S { int a, b, c, d, e; };
int get(struct S *s) { return s->e > 0 ? 1 : 0; }
