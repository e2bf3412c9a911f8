#include <stdio.h>
#include <stdlib.h>

struct task {
    int id;
    int priority;
};

static void setup(struct task *p, int id, int prio) {
    p->id = id;
    p->priority = prio;
}

static int urgent(const struct task *p) {
    return p->priority > 5;
}

static int label(const struct task *p) {
    return p->id * 10;
}

int main(int argc, char **argv) {
    struct task t = { 0, 0 };
    int prio = argc > 1 ? atoi(argv[1]) : 7;
    setup(&t, 3, prio);
    printf("%d %d\n", urgent(&t), label(&t));
    return 0;
}
