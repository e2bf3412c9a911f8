// GCC's cleanup attribute: the function runs with the variable's address wherever its scope is left (end of block, return, break, continue, goto out of it), innermost first, in reverse order of declaration.
// RUN:
// RUN: args=a b c
#include <stdio.h>
#include <stdlib.h>

static int trace[128];
static int n;

static void note(int *p) { trace[n++] = *p; }
static void release(char **p) {
    trace[n++] = 100 + (*p != NULL);
    free(*p);
}

static int early(int k) {
    __attribute__((cleanup(note))) int a = 1;
    if (k > 1) {
        int b __attribute__((cleanup(note))) = 2;
        if (k > 2)
            return a + b;  /* runs note(&b), then note(&a), after the value is taken */
        a = 10;
    }
    return a;
}

static void loops(int k) {
    for (int i = 0; i < k; i++) {
        int x __attribute__((cleanup(note))) = 20 + i;
        if (i == 1)
            continue;
        if (i == 3)
            break;
        int y __attribute__((cleanup(note))) = 30 + i;
        (void)y;
    }
    {
        char *buf __attribute__((cleanup(release))) = malloc(8);
        int z __attribute__((cleanup(note))) = 40, w = 41;
        (void)w;
        if (k > 0)
            goto out;
        z = 42;
    out:
        trace[n++] = z;
    }
    {
        int v __attribute__((cleanup(note))) = 50;
        if (k > 2)
            goto done;
        v = 51;
    }
done:
    trace[n++] = 60;
    /* A jump back to before the declaration leaves the variable's scope too. */
    int i = 0;
again:
    trace[n++] = 70 + i;
    int u __attribute__((cleanup(note))) = 80 + i;
    if (++i < k)
        goto again;
    (void)u;
}

int main(int argc, char **argv) {
    (void)argv;
    int r = early(argc);
    loops(argc + 1);
    printf("early %d\n", r);
    for (int i = 0; i < n; i++)
        printf("%d ", trace[i]);
    printf("\n");
    return 0;
}
