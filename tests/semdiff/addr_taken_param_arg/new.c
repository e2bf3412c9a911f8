int g(int x) { int *p = &x; return *p + 1; }
int t(int a, int b) { return g(b); }
