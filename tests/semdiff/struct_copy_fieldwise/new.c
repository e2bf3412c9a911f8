struct vec { int x, y, z; };
static int dot(struct vec a, struct vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
int proj(int x, int y, int z) {
    struct vec v;
    struct vec w;
    v.x = x; v.y = y; v.z = z;
    w.x = v.x; w.y = v.y; w.z = v.z;
    return dot(v, w);
}
