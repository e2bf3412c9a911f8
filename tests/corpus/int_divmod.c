// Division and modulo: truncation toward zero for negative operands, unsigned division, identities.
#include <stdio.h>
#include <stdlib.h>

static int floor_div(int a, int b) {
    int q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

static int mod_pos(int a, int m) {
    int r = a % m;
    return r < 0 ? r + m : r;
}

int main(void) {
    int as[] = {7, -7, 7, -7, 0, 1, -1, 13};
    int bs[] = {2, 2, -2, -2, 5, 3, 3, -4};
    for (int i = 0; i < 8; i++) {
        int a = as[i], b = bs[i];
        printf("%3d / %2d = %3d   %3d %% %2d = %3d   floor %3d   check %d\n", a, b, a / b, a, b,
               a % b, floor_div(a, b), (a / b) * b + a % b == a);
    }
    printf("mod_pos: %d %d %d\n", mod_pos(-1, 5), mod_pos(-10, 5), mod_pos(11, 5));
    printf("long: %ld %ld\n", -100000000000L / 7, -100000000000L % 7);
    printf("llong: %lld %lld\n", -9000000000000000000LL / 1000, -9000000000000000001LL % 1000);
    printf("unsigned: %u %u\n", 4000000000u / 3u, 4000000000u % 7u);
    printf("uchar: %d\n", (unsigned char)250 / (unsigned char)7);
    printf("char div: %d %d\n", (signed char)-100 / 3, (signed char)-100 % 3);
    int qa = -17, qb = 5;
    printf("-17 = %d * 5 + %d\n", qa / qb, qa % qb);
    long la = 17L, lb = -5L;
    printf("17 = %ld * -5 + %ld\n", la / lb, la % lb);
    printf("abs %d labs %ld llabs %lld\n", abs(-42), labs(-42L), llabs(-4200000000LL));
    printf("double: %.4f %.4f\n", -7.0 / 2, 7.0 / -2);
    int digits = 0, sumd = 0;
    for (int v = -98765; v != 0; v /= 10) {
        digits++;
        sumd += v % 10;
    }
    printf("digits %d digit sum %d\n", digits, sumd);
    int h = 0;
    for (int v = 1; v <= 1000; v++) h = (h * 31 + v % 97 - v / 13) % 100003;
    printf("mix %d\n", h);
    int q = -2147483647 - 1;
    printf("INT_MIN / 2 = %d, %% 3 = %d\n", q / 2, q % 3);
    return 0;
}
