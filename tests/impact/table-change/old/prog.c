#include <stdio.h>
#include "tab.h"

static int twice(int x) {
    return x * 2;
}

static int follow(int i) {
    return next[i];
}

static int walk(int start) {
    int n = 0;
    int i = start;
    while (i != 0 && n < 10) {
        i = follow(i);
        n++;
    }
    return n;
}

int main(void) {
    int steps = walk(1);
    int doubled = twice(3);
    printf("%d %d\n", steps, doubled);
    return 0;
}
