#include <stdio.h>
#include "lib.h"

int main(void) {
    int v = scale(4);
    printf("%d\n", v);
    return 0;
}
