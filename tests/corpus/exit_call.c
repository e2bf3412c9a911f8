// Exit codes: exit(3) from deep inside nested calls, with pending output, skipping the rest of main.
// RUN:
// RUN: args=stop
// RUN: args=deep
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int depth_reached;

static void descend(int level, int limit) {
    depth_reached = level;
    printf("level %d\n", level);
    if (level == limit) {
        printf("exiting from level %d\n", level);
        exit(3);
    }
    if (level < 100) descend(level + 1, limit);
    printf("unwinding %d\n", level);
}

static int validate(const char *mode) {
    if (strcmp(mode, "stop") == 0) {
        printf("stop requested\n");
        exit(EXIT_FAILURE);
    }
    return strcmp(mode, "deep") == 0 ? 6 : 2;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "default";
    printf("mode %s\n", mode);
    int limit = validate(mode);
    printf("limit %d\n", limit);
    descend(0, limit);
    printf("not reached, depth %d\n", depth_reached);
    return 0;
}
