int inc(int x) {
    return x + 1;
}

int apply(int (*f)(int), int x) {
    return f(x);
}

int twice(int x) {
    return apply(inc, apply(inc, x));
}
