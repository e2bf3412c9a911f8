int steps(int x) { if (x < 0) return -x; return 0; }
int use(int x) { return x > 0 ? -steps(-x) : steps(x); }
