int steps(int x) { int c = 0; while (x < 0) { x++; c++; } return c; }
int use(int x) { return x > 0 ? -steps(-x) : steps(x); }
