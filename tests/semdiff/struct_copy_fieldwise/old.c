struct vec { int x, y, z; };
static int dot(struct vec a, struct vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
int proj(int x, int y, int z) {
    struct vec v = { x, y, z };
    struct vec w;
    w = v;
    return dot(w, v);
}
