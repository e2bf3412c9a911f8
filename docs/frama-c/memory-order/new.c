/* ripple vs Frama-C impact (docs/frama-c-impact.md), finding 1 -- NEW version.
 * Only the store on line 8 differs (old: *p = 1, new: *p = 2). Lines 7, 9
 * and 13 execute before it or read only values read before it, equal in both
 * versions; line 15 reads the changed value. */
#include <stdio.h>
void set(int *p) {
    int before = *p;
    *p = 2;
    printf("%d\n", before);
}
int main(void) {
    int x = 0;
    printf("%d\n", x);
    set(&x);
    printf("%d\n", x);
    return 0;
}
