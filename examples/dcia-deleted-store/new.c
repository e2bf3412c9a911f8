#include <stdio.h>
#include <stdlib.h>

struct task {
    int id;
    int priority;
    struct task *next;
};

static struct task *head;

static void add(int id, int prio)
{
    struct task *p = malloc(sizeof *p);
    p->id = id;
    p->priority = 0;
    p->next = head;
    head = p;
}

static int count(void)
{
    int n = 0;
    struct task *p;
    for (p = head; p; p = p->next)
        n = n + 1;
    return n;
}

static int urgent(void)
{
    int n = 0;
    struct task *p;
    for (p = head; p; p = p->next)
        if (p->priority > 5)
            n = n + 1;
    return n;
}

int main(void)
{
    add(1, 3);
    add(2, 9);
    add(3, 7);
    printf("%d tasks\n", count());
    printf("%d urgent\n", urgent());
    return 0;
}
