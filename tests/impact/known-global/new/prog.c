#include <stdio.h>

static int mode = 1;
static int limit = 3;

void show(int m) { printf("mode %d\n", m); }
void cap(int l) { printf("limit %d\n", l); }

int run(int argc) {
    show(mode);
    if (argc > 1)
        limit = 5;
    cap(limit);
    mode = 2;
    return 0;
}

int main(int argc, char **argv) {
    (void)argv;
    return run(argc);
}
