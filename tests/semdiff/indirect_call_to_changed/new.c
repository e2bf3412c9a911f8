int inc(int x) {
    return x + 2;
}

int apply(int (*f)(int), int x) {
    return f(x);
}

int twice(int x) {
    return apply(inc, apply(inc, x));
}
