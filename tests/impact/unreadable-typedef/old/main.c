/* Text that cannot be read changes in a typedef, which belongs to no function, global
   or record: the report says so first. */
#include <stdio.h>

typedef int count_t @ 1;

int main(int argc, char **argv) {
    (void)argv;
    printf("%d\n", argc);
    return 0;
}
