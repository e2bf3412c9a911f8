typedef struct S { int x; int z; } T;
int h(T o) { return o.x; }
int t(int x1, int z1, int x2, int z2) {
  T o1; o1.x = x1; o1.z = z1;
  T o2; o2.x = x2; o2.z = 0;
  return h(o2);
}
