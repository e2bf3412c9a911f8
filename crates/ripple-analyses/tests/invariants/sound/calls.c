static int twice(int x) { return x + x; }
static int clamp(int v, int lo, int hi) {
    if (v < lo) return lo;
    if (v > hi) return hi;
    return v;
}
static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

int use_twice(int a) {
    int t = twice(a);
    int u = t - a;
    return u;
}

int use_clamp(int a) {
    int c = clamp(a, -5, 5);
    return c;
}

int use_fact(int n) {
    int f = fact(n);
    int g = 3;
    return g;
}
