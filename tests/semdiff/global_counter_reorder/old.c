int calls;
int f(int x) {
    calls += 1;
    return x * 2;
}
