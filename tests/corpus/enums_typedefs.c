// Enums (implicit and explicit values, as switch cases and array indices) and typedefs of scalars, structs, arrays, pointers.
#include <stdio.h>

enum color { RED, GREEN, BLUE, COLOR_COUNT };
enum status { OK = 0, WARN = 10, FAIL, FATAL = -1, AGAIN = WARN + 5 };
typedef enum { NORTH = 1, EAST = 2, SOUTH = 4, WEST = 8 } direction;

typedef unsigned long ulong_t;
typedef int vec3[3];
typedef struct pair { int first, second; } pair;
typedef pair *pair_ptr;
typedef const char *cstr;
typedef int (*binop)(int, int);

static const char *color_names[COLOR_COUNT] = {[RED] = "red", [GREEN] = "green", [BLUE] = "blue"};

static int add(int a, int b) { return a + b; }

static const char *status_name(enum status s) {
    switch (s) {
    case OK: return "ok";
    case WARN: return "warn";
    case FAIL: return "fail";
    case FATAL: return "fatal";
    case AGAIN: return "again";
    }
    return "?";
}

static pair swap_pair(pair p) { return (pair){p.second, p.first}; }

int main(void) {
    for (enum color c = RED; c < COLOR_COUNT; c++) printf("%d=%s ", c, color_names[c]);
    putchar('\n');
    enum status all[] = {OK, WARN, FAIL, FATAL, AGAIN};
    for (int i = 0; i < 5; i++) printf("%s=%d ", status_name(all[i]), all[i]);
    putchar('\n');
    direction d = NORTH | WEST;
    printf("dir mask %d has west %d has south %d\n", d, (d & WEST) != 0, (d & SOUTH) != 0);
    printf("sizeof enum %zu\n", sizeof(enum color));
    enum color next = (enum color)((BLUE + 1) % COLOR_COUNT);
    printf("after blue %s\n", color_names[next]);
    int as_int = GREEN * 10 + BLUE;
    printf("enum arithmetic %d\n", as_int);

    ulong_t big = 1ul << 40;
    vec3 v = {1, 2, 3};
    pair p = {4, 5};
    pair_ptr pp = &p;
    cstr msg = "typedef'd string";
    binop op = add;
    printf("%lu %d %d %d\n", big, v[0] + v[1] + v[2], pp->first, pp->second);
    printf("%s %d\n", msg, op(20, 22));
    pair q = swap_pair(p);
    printf("swapped %d %d sizeof vec3 %zu\n", q.first, q.second, sizeof(vec3));
    typedef struct { pair a; vec3 b; } combo;
    combo c = {{1, 2}, {3, 4, 5}};
    printf("combo %d %d sum\n", c.a.second, c.b[2]);
    struct pair tagged = {7, 8};
    pair untagged = tagged;
    printf("tag and typedef interchangeable %d\n", untagged.first + untagged.second);
    enum { LOCAL_A = 3, LOCAL_B } local = LOCAL_B;
    printf("local enum %d\n", local);
    return 0;
}
