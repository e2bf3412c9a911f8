/* exit flushes stdio before the process ends. */
#include <stdio.h>
#include <stdlib.h>

void finish(int code) {
    printf("done %d\n", code);
    exit(code);
}
