/* ripple vs Frama-C impact (docs/frama-c-impact.md), finding 2 -- NEW version.
 * Only line 9 differs (old: return 1, new: return 2). The file-scope static
 * limit has the same initial value in both versions, so line 12 reads equal
 * values in both; line 13 is impacted through the return value of f. */
#include <stdio.h>
static int limit = 10;
int f(void);
int f(void) {
    return 2;
}
int main(void) {
    printf("%d\n", limit);
    return f();
}
