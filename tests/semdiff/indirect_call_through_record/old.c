struct ops {
    int (*step)(int);
};

int inc(int x) {
    return x + 1;
}

int run_ops(struct ops *o, int x) {
    return o->step(x);
}

struct ops incrementer = {inc};
