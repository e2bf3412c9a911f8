/* _Exit ends the process without flushing stdio. */
#include <stdio.h>
#include <stdlib.h>

void finish(int code) {
    printf("done %d\n", code);
    _Exit(code);
}
