// Expressions: compound assignment operators and pre/post increment/decrement on ints, pointers, chars, doubles.
#include <stdio.h>

int main(void) {
    int x = 10;
    x += 5; printf("+= %d\n", x);
    x -= 3; printf("-= %d\n", x);
    x *= 4; printf("*= %d\n", x);
    x /= 5; printf("/= %d\n", x);
    x %= 5; printf("%%= %d\n", x);
    x <<= 3; printf("<<= %d\n", x);
    x >>= 1; printf(">>= %d\n", x);
    x &= 0xC; printf("&= %d\n", x);
    x |= 0x31; printf("|= %d\n", x);
    x ^= 0xFF; printf("^= %d\n", x);

    int i = 5;
    int a = i++;
    int b = ++i;
    int c = i--;
    int d = --i;
    printf("a=%d b=%d c=%d d=%d i=%d\n", a, b, c, d, i);

    int y = 3;
    int z = y++ + 10;
    printf("y=%d z=%d\n", y, z);
    z = 10 - --y;
    printf("y=%d z=%d\n", y, z);

    int arr[] = {10, 20, 30, 40};
    int *p = arr;
    printf("%d ", *p++);
    printf("%d ", *++p);
    printf("%d ", ++*p);
    printf("%d ", (*p)++);
    printf("%d\n", *p);
    p += 1; printf("p+=1 -> %d\n", *p);
    p -= 2; printf("p-=2 -> %d\n", *p);

    char ch = 'a';
    ch++; ch += 2;
    printf("char %c\n", ch);
    unsigned char uc = 250;
    uc += 10;
    printf("uchar wrap %d\n", uc);
    signed char sc = 120;
    sc += 10;
    printf("schar wrap %d\n", sc);
    short sh = 32767;
    sh++;
    printf("short wrap %d\n", sh);

    double dd = 1.5;
    dd *= 3; dd -= 0.5; dd++; dd /= 2;
    printf("double %.4f\n", dd);
    int k = 7;
    k *= 2.5;
    printf("int *= double %d\n", k);
    k /= 0.5;
    printf("int /= double %d\n", k);

    int m = 1, n = 2, o = 3;
    m = n = o = 42;
    printf("chain %d %d %d\n", m, n, o);
    m += n -= o *= 2;
    printf("chain compound %d %d %d\n", m, n, o);
    int q = (m = 5) + 1;
    printf("assign value %d %d\n", q, m);
    return 0;
}
