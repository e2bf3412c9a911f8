/* A value that reaches its uses through memory the C library writes (memcpy) and
   through a read narrower than the write that stored it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec {
    int key;
    int val;
};

int main(int argc, char **argv) {
    int x = argc > 1 ? atoi(argv[1]) : 0;
    struct rec a, b;
    a.key = 1;
    a.val = x * 3;
    memcpy(&b, &a, sizeof a);
    int v = b.val;
    unsigned char hi = ((unsigned char *)&a.val)[1];
    if (v > 10)
        printf("big\n");
    if (hi)
        printf("wide\n");
    return 0;
}
