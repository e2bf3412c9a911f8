/* The two calls as arguments: C leaves their order unspecified; gcc on x86-64
   evaluates the second first. */
static int cnt = 0;
static int next(void) { return ++cnt; }
static int pair(int a, int b) { return a * 10 + b; }
int f(void) {
    return pair(next(), next());
}
