#include <stdio.h>

int tag(int x) { return x | 1; }

int odd_flag(int x) { return tag(x) & 1; }

int main(int argc, char **argv) {
    (void)argv;
    int flag = odd_flag(argc);
    printf("%d\n", flag);
    printf("%d\n", tag(argc));
    return 0;
}
