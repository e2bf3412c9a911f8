/* Text that cannot be read changes outside functions: in a table's initializer (`@`
   is no C operator) and in a struct's body. What reads them is impacted. */
#include <stdio.h>

int table[3] = { 1, 2 @ 3, 4 };

struct pair {
    int a;
    int b @ 1;
    int c;
};

static int lookup(int i) {
    int v = table[i];
    return v;
}

static int fill(int x) {
    struct pair p = { 0 };
    p.c = x;
    return p.c;
}

int main(int argc, char **argv) {
    (void)argv;
    printf("%d\n", lookup(argc));
    printf("%d\n", fill(argc));
    return 0;
}
