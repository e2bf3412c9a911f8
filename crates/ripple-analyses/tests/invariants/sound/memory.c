static void set(int *p, int v) { *p = v; }
int g;

int through_pointer(int a) {
    int x = 1;
    int y = 2;
    set(&x, a);
    y = y + 1;
    return x;
}

int arrays(int a, int b) {
    int t[4];
    t[0] = a;
    t[1] = b;
    t[2] = t[0] + t[1];
    return t[2];
}

int aliasing(int a, int i) {
    int t[4];
    int r;
    if (i < 0 || i > 3) return 0;
    t[0] = 5;
    t[i] = a;
    r = t[0];
    return r;
}

int global_write(int a) {
    int before;
    g = a;
    before = g;
    g = g + 1;
    return before;
}
