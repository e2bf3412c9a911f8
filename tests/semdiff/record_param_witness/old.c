typedef struct S {
    int x;
    int z;
    double d;
} T;

int f(T o, int k) {
    if (k > 3)
        return o.x + k;
    return o.z;
}
