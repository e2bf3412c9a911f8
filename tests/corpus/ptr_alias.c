// Pointers: aliasing through two pointers, pointer to pointer, swap, out-parameters, const pointers.
#include <stdio.h>

static void swap(int *a, int *b) {
    int t = *a;
    *a = *b;
    *b = t;
}

static void add_twice(int *dst, const int *src) {
    *dst += *src;
    *dst += *src;
}

static void advance(const char **pp, char stop) {
    while (**pp && **pp != stop) (*pp)++;
}

static void set_ptr(int **pp, int *target) { *pp = target; }

static void min_max(const int *v, int n, int *mn, int *mx) {
    *mn = *mx = v[0];
    for (int i = 1; i < n; i++) {
        if (v[i] < *mn) *mn = v[i];
        if (v[i] > *mx) *mx = v[i];
    }
}

int main(void) {
    int x = 1, y = 2;
    swap(&x, &y);
    printf("swap %d %d\n", x, y);
    swap(&x, &x);
    printf("self swap %d\n", x);
    int v = 5;
    add_twice(&v, &v);
    printf("aliased add_twice %d\n", v);
    int w = 5, u = 5;
    add_twice(&w, &u);
    printf("unaliased add_twice %d\n", w);

    int a = 10;
    int *p1 = &a, *p2 = &a;
    *p1 = 20;
    printf("through p2 %d\n", *p2);
    *p2 += 5;
    printf("a %d\n", a);

    int **pp = &p1;
    **pp = 99;
    printf("via pp %d\n", a);
    int b = 7;
    *pp = &b;
    printf("p1 now -> %d, a still %d\n", *p1, a);
    int ***ppp = &pp;
    ***ppp = 8;
    printf("b via ppp %d\n", b);
    int *target = NULL;
    set_ptr(&target, &a);
    printf("set_ptr %d\n", *target);

    const char *s = "key=value";
    const char *cur = s;
    advance(&cur, '=');
    printf("advanced to '%s' offset %td\n", cur, cur - s);

    int arr[5] = {4, -2, 9, 0, 3};
    int mn, mx;
    min_max(arr, 5, &mn, &mx);
    printf("min %d max %d\n", mn, mx);
    int *ptrs[3] = {&arr[0], &arr[2], &arr[4]};
    for (int i = 0; i < 3; i++) *ptrs[i] *= 10;
    printf("arr %d %d %d %d %d\n", arr[0], arr[1], arr[2], arr[3], arr[4]);
    int overlap[6] = {1, 2, 3, 4, 5, 6};
    int *lo = overlap, *hi = overlap + 1;
    for (int i = 0; i < 5; i++) hi[i] += lo[i];
    printf("overlapping prefix sums:");
    for (int i = 0; i < 6; i++) printf(" %d", overlap[i]);
    putchar('\n');
    int c = 3;
    int *const cp = &c;
    *cp = 4;
    const int *pc = &c;
    printf("const ptrs %d %d\n", *cp, *pc);
    return 0;
}
