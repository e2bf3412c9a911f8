// Compound literals, designated initializers for locals (nested, out of order, arrays of structs), and sizeof of expressions.
#include <stdio.h>
#include <string.h>

struct point { int x, y; };
struct line { struct point a, b; const char *label; };

static int manhattan(struct point p, struct point q) {
    int dx = p.x - q.x, dy = p.y - q.y;
    return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
}

static int sum(const int *v, int n) {
    int s = 0;
    while (n--) s += *v++;
    return s;
}

int main(void) {
    printf("distance %d\n", manhattan((struct point){1, 2}, (struct point){.y = -3, .x = 4}));
    printf("sum of literal array %d\n", sum((int[]){1, 2, 3, 4, 5}, 5));
    struct point *pp = &(struct point){7, 8};
    pp->x *= 2;
    printf("modified literal %d %d\n", pp->x, pp->y);
    struct line l = {.b = {.x = 5}, .label = "diag", .a.y = 3};
    printf("line %d %d %d %d %s\n", l.a.x, l.a.y, l.b.x, l.b.y, l.label);
    struct line lines[] = {[2] = {.label = "third"}, [0].a = {1, 1}, [0].label = "first"};
    printf("lines %zu: %s %s %s\n", sizeof lines / sizeof lines[0], lines[0].label,
           lines[1].label ? lines[1].label : "(null)", lines[2].label);
    int arr[8] = {[1] = 1, [5] = 5, 6, [2] = 2};
    for (int i = 0; i < 8; i++) printf("%d ", arr[i]);
    putchar('\n');
    char name[10] = {[0] = 'h', [1] = 'i'};
    printf("name %s len %zu\n", name, strlen(name));
    int x = 5;
    printf("sizeof x++ %zu, x still %d\n", sizeof x++, x);
    printf("sizeof exprs %zu %zu %zu %zu\n", sizeof(x + 1L), sizeof(char) * 3, sizeof(1 ? 'a' : 2.0),
           sizeof(struct line));
    double grid[3][4];
    printf("sizeof grid %zu row %zu elem %zu\n", sizeof grid, sizeof grid[0], sizeof grid[0][0]);
    printf("sizeof string %zu pointer deref %zu\n", sizeof "hello", sizeof *pp);
    struct point pts[3];
    memcpy(pts, (struct point[]){{1, 2}, {3, 4}, {5, 6}}, sizeof pts);
    printf("copied %d %d\n", pts[2].x, pts[1].y);
    const char *dirs = (const char *[]){"n", "e", "s", "w"}[2];
    printf("indexed literal %s\n", dirs);
    int total = 0;
    for (struct point *it = (struct point[]){{1, 1}, {2, 2}, {0, 0}}; it->x; it++) total += it->x * it->y;
    printf("loop over literal %d\n", total);
    return 0;
}
