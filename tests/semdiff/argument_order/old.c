/* The two calls in the order written. */
static int cnt = 0;
static int next(void) { return ++cnt; }
static int pair(int a, int b) { return a * 10 + b; }
int f(void) {
    int a = next();
    int b = next();
    return pair(a, b);
}
