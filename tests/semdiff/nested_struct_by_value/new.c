struct inner { int lo, hi; };
struct outer { struct inner r; int tag; int pad[2]; };
static int width(struct outer o) { return o.tag ? o.r.hi - o.r.lo : o.pad[1]; }
static struct outer make(int lo, int hi, int tag) {
    struct outer o;
    o.r.lo = lo; o.r.hi = hi; o.tag = tag; o.pad[0] = 0; o.pad[1] = -2;
    return o;
}
int span(int lo, int hi, int tag) { return width(make(lo, hi, tag)); }
