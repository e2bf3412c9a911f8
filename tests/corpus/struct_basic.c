// Structs: nested structs, by-value assignment and copies, structs passed and returned by value, arrays in structs.
#include <stdio.h>

struct vec { double x, y; };
struct rect { struct vec min, max; };
struct named { char name[16]; int values[3]; };

static struct vec vadd(struct vec a, struct vec b) {
    struct vec r = {a.x + b.x, a.y + b.y};
    return r;
}

static struct vec vscale(struct vec v, double k) {
    v.x *= k;
    v.y *= k;
    return v;
}

static double area(struct rect r) { return (r.max.x - r.min.x) * (r.max.y - r.min.y); }

static struct rect grow(struct rect r, double d) {
    r.min = vadd(r.min, (struct vec){-d, -d});
    r.max = vadd(r.max, (struct vec){d, d});
    return r;
}

static struct named bump(struct named n) {
    for (int i = 0; i < 3; i++) n.values[i]++;
    n.name[0] = 'N';
    return n;
}

int main(void) {
    struct vec a = {1, 2}, b = {.y = 5, .x = 3};
    struct vec c = vadd(a, b);
    printf("c = (%.1f, %.1f)\n", c.x, c.y);
    struct vec d = vscale(c, 2);
    printf("d = (%.1f, %.1f), c unchanged (%.1f, %.1f)\n", d.x, d.y, c.x, c.y);
    struct rect r = {{0, 0}, {2, 3}};
    printf("area %.1f\n", area(r));
    struct rect g = grow(r, 1);
    printf("grown (%.1f,%.1f)-(%.1f,%.1f) area %.1f, original %.1f\n", g.min.x, g.min.y, g.max.x,
           g.max.y, area(g), area(r));
    struct rect copy = r;
    copy.max.x = 10;
    printf("copy is independent: %.1f vs %.1f\n", copy.max.x, r.max.x);
    struct named n1 = {"name", {1, 2, 3}};
    struct named n2 = bump(n1);
    printf("%s %d %d %d / %s %d %d %d\n", n1.name, n1.values[0], n1.values[1], n1.values[2],
           n2.name, n2.values[0], n2.values[1], n2.values[2]);
    n1 = n2;
    n2.values[0] = 100;
    printf("after assign: %s %d\n", n1.name, n1.values[0]);
    printf("sizes %zu %zu %zu\n", sizeof(struct vec), sizeof(struct rect), sizeof(struct named));
    struct { char c; int i; char d; } padded = {'a', 1, 'b'};
    struct { int i; char c, d; } packed_order = {1, 'a', 'b'};
    printf("padding %zu vs %zu, %c%d%c\n", sizeof padded, sizeof packed_order, padded.c, padded.i,
           padded.d);
    struct vec path[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    struct vec sum = {0, 0};
    for (int i = 0; i < 4; i++) sum = vadd(sum, path[i]);
    printf("centroid (%.2f, %.2f)\n", sum.x / 4, sum.y / 4);
    struct vec zero = {0};
    printf("zero init %.1f %.1f\n", zero.x, zero.y);
    return 0;
}
