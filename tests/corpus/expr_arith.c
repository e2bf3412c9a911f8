// Expressions: arithmetic, relational and logical operators, precedence and associativity.
#include <stdio.h>

#pragma GCC diagnostic ignored "-Wparentheses"

int main(void) {
    int a = 17, b = 5, c = -3;
    printf("%d %d %d %d %d\n", a + b, a - b, a * b, a / b, a % b);
    printf("%d %d %d\n", -a, +b, -(-c));
    printf("prec: %d %d %d %d\n", a + b * c, (a + b) * c, a - b - c, a / b / 2);
    printf("prec2: %d %d %d\n", a * b % 7, a % b * 7, -a % b);
    printf("rel: %d %d %d %d %d %d\n", a < b, a > b, a <= 17, a >= 18, a == 17, a != 17);
    printf("logic: %d %d %d %d %d\n", a && b, a && 0, 0 || c, 0 || 0, !a);
    printf("mixed: %d %d\n", a < b == 0, a > b != b > a);
    printf("chain: %d\n", 1 < 2 < 3);
    printf("chain2: %d\n", 3 > 2 > 1);
    printf("not: %d %d %d\n", !0, !!5, !-1);
    printf("bits vs logic: %d %d\n", 6 & 3 && 1, 6 && 3 & 1);
    printf("eq vs and: %d\n", (a & 1) == 1);
    printf("cond prec: %d\n", a > b ? a - b : b - a);
    printf("unary stack: %d %d\n", - -a, ~-a);

    long l = 1000000L * 3000;
    printf("long mul %ld\n", l);
    long long ll = (long long)a * 1000000000LL;
    printf("llong %lld\n", ll);
    unsigned u = 10;
    printf("unsigned div %u %u\n", u / 3, u % 3);
    double x = 7.0, y = 2.0;
    printf("double %.3f %.3f %.3f %.3f\n", x + y, x - y, x * y, x / y);
    printf("int/double %.3f %d\n", a / 2.0, (int)(a / 2.0));
    printf("mixed prec %.2f\n", 1 + 2 * 3.5 - 4 / 8);

    int arr[5] = {1, 2, 3, 4, 5};
    int i = 1;
    printf("index expr %d %d\n", arr[i + 2], arr[arr[0]] * arr[4 - arr[1]]);
    int sum = 0;
    for (int k = 1; k <= 100; k++) sum += k * k - (k & 1) * 2;
    printf("sum %d\n", sum);
    return (a * b) % 7 == 1 ? 0 : 1;
}
