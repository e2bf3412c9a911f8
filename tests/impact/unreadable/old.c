int f(int x) { return x + 1; }
int g(int y) { return y ) + ; }
int main(void) { return f(2) + g(3); }
