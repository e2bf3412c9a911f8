#include <stdio.h>

static int mode = 1;
static int limit = 3;

void show(int m) { printf("mode %d\n", m); }
void cap(int l) { printf("limit %d\n", l); }

int run(int argc) {
    show(1);
    if (argc > 1)
        limit = 5;
    cap(3);
    mode = 2;
    return 0;
}

int main(int argc, char **argv) {
    (void)argv;
    return run(argc);
}
