/* Gyori, Lahiri, Partush (ISSTA 2017), Figure 4 (anytime algorithm) -- NEW version.
 * The figure's chain f1 ... fn is written out with n = 5; main's parameter x is
 * argc here (the figure has `void main(int x)`). Only main's call line differs. */
#include <stdio.h>

void f1(int x);
void f2(int x);
void f3(int x);
void f4(int x);
void f5(int x);

int main(int x, char *argv[]) {
    f1(x+0);
    (void)argv;
    return 0;
}
void f1(int x) {
    f2(x+1);
}
void f2(int x) {
    f3(x+2);
}
void f3(int x) {
    f4(x+3);
}
void f4(int x) {
    f5(x+4);
}
void f5(int x) {
    printf("f5: x=%d\n", x); /* fn: the figure's body is empty */
}
