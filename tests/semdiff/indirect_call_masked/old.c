struct ops {
    int (*step)(int);
};

int inc(int x) {
    return x + 1;
}

int grows(struct ops *o, int x) {
    if (x < 0 || x > 100)
        return 0;
    return o->step(x) > x;
}

struct ops incrementer = {inc};
