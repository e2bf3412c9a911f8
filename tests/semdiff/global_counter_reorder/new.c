int calls;
int f(int x) {
    int r = x * 2;
    calls++;
    return r;
}
