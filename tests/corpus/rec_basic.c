// Recursion: factorial, fibonacci (naive and memoized), ackermann, gcd, power, hanoi, permutations.
#include <stdio.h>

static unsigned long long fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static long long memo[91];
static long long fib_memo(int n) {
    if (n < 2) return n;
    if (memo[n]) return memo[n];
    return memo[n] = fib_memo(n - 1) + fib_memo(n - 2);
}

static int ack(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }

static double power(double base, int e) {
    if (e == 0) return 1;
    if (e < 0) return 1 / power(base, -e);
    double half = power(base, e / 2);
    return e % 2 ? half * half * base : half * half;
}

static int moves;
static void hanoi(int n, char from, char to, char via) {
    if (n == 0) return;
    hanoi(n - 1, from, via, to);
    if (n >= 3) printf("move disk %d %c->%c\n", n, from, to);
    moves++;
    hanoi(n - 1, via, to, from);
}

static void permute(char *s, int k, int n) {
    if (k == n) {
        printf("%s ", s);
        return;
    }
    for (int i = k; i < n; i++) {
        char t = s[k]; s[k] = s[i]; s[i] = t;
        permute(s, k + 1, n);
        t = s[k]; s[k] = s[i]; s[i] = t;
    }
}

static int digit_sum(unsigned n) { return n ? (int)(n % 10) + digit_sum(n / 10) : 0; }

int main(void) {
    for (int i = 0; i <= 20; i += 5) printf("%d! = %llu\n", i, fact(i));
    for (int i = 0; i <= 20; i += 4) printf("fib(%d) = %d\n", i, fib(i));
    printf("fib(90) = %lld\n", fib_memo(90));
    for (int m = 0; m <= 2; m++)
        for (int n = 0; n <= 3; n++) printf("ack(%d,%d)=%d%c", m, n, ack(m, n), n == 3 ? '\n' : ' ');
    printf("ack(3,3)=%d\n", ack(3, 3));
    printf("gcd %d %d %d\n", gcd(48, 18), gcd(17, 5), gcd(0, 9));
    printf("power %.4f %.6f %.1f\n", power(2, 10), power(2, -3), power(1.5, 5));
    hanoi(5, 'A', 'C', 'B');
    printf("hanoi moves %d\n", moves);
    char s[] = "abc";
    permute(s, 0, 3);
    printf("\ndigit sum %d\n", digit_sum(987654321u));
    return 0;
}
