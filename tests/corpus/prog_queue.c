// Program: a ring-buffer queue and an array stack simulating a bank line and bracket matching from stdin.
// RUN: stdin="{[()()]}\n([)]\n((\n\n"
#include <stdio.h>
#include <string.h>

#define CAP 8

struct queue { int data[CAP]; int head, tail, size; };

static int enqueue(struct queue *q, int v) {
    if (q->size == CAP) return 0;
    q->data[q->tail] = v;
    q->tail = (q->tail + 1) % CAP;
    q->size++;
    return 1;
}

static int dequeue(struct queue *q, int *out) {
    if (q->size == 0) return 0;
    *out = q->data[q->head];
    q->head = (q->head + 1) % CAP;
    q->size--;
    return 1;
}

static int balanced(const char *s, int *where) {
    char stack[64];
    int top = 0;
    for (int i = 0; s[i]; i++) {
        char c = s[i];
        if (strchr("([{", c)) { stack[top++] = c; continue; }
        const char *closers = ")]}", *openers = "([{";
        const char *k = strchr(closers, c);
        if (!k || !c) continue;
        if (top == 0 || stack[top - 1] != openers[k - closers]) { *where = i; return 0; }
        top--;
    }
    *where = -1;
    return top == 0;
}

int main(void) {
    struct queue q = {{0}, 0, 0, 0};
    int served = 0, rejected = 0, waited = 0, v;
    for (int t = 0; t < 30; t++) {
        int arrivals = (t * 7 % 5) / 2;
        for (int a = 0; a < arrivals; a++) {
            if (!enqueue(&q, t)) rejected++;
        }
        if (t % 2 == 0 && dequeue(&q, &v)) {
            served++;
            waited += t - v;
        }
    }
    printf("served %d rejected %d waiting %d total wait %d\n", served, rejected, q.size, waited);
    while (dequeue(&q, &v)) printf("%d ", v);
    printf("| head %d tail %d\n", q.head, q.tail);
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        int where;
        int ok = balanced(line, &where);
        printf("'%s': %s", line, ok ? "balanced" : "unbalanced");
        if (where >= 0) printf(" at %d", where);
        putchar('\n');
    }
    return 0;
}
