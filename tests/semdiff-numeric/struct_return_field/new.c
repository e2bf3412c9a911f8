struct pt {
    int x, y;
};
struct pt mk_point(int a, int b) {
    struct pt p;
    p.x = a + b;
    p.y = 2 * b;
    return p;
}
