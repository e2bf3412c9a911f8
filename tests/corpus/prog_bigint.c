// Program: arbitrary-precision decimal addition and multiplication on digit strings: Fibonacci and factorial beyond 64 bits.
// RUN: args=99999999999999999999 1
// RUN: args=123456789012345678901234567890 987654321098765432109876543210
#include <stdio.h>
#include <string.h>

#define MAXD 200

static void add(const char *a, const char *b, char *out) {
    int i = (int)strlen(a) - 1, j = (int)strlen(b) - 1, k = 0, carry = 0;
    char tmp[MAXD + 2];
    while (i >= 0 || j >= 0 || carry) {
        int s = carry + (i >= 0 ? a[i--] - '0' : 0) + (j >= 0 ? b[j--] - '0' : 0);
        tmp[k++] = (char)('0' + s % 10);
        carry = s / 10;
    }
    for (int m = 0; m < k; m++) out[m] = tmp[k - 1 - m];
    out[k] = '\0';
}

static void mul_small(char *a, int f) {
    int n = (int)strlen(a), carry = 0;
    char tmp[MAXD + 2];
    int k = 0;
    for (int i = n - 1; i >= 0; i--) {
        int p = (a[i] - '0') * f + carry;
        tmp[k++] = (char)('0' + p % 10);
        carry = p / 10;
    }
    while (carry) {
        tmp[k++] = (char)('0' + carry % 10);
        carry /= 10;
    }
    for (int m = 0; m < k; m++) a[m] = tmp[k - 1 - m];
    a[k] = '\0';
}

static int digit_sum(const char *s) {
    int sum = 0;
    while (*s) sum += *s++ - '0';
    return sum;
}

int main(int argc, char **argv) {
    char a[MAXD] = "0", b[MAXD] = "1", c[MAXD];
    for (int i = 2; i <= 150; i++) {
        add(a, b, c);
        strcpy(a, b);
        strcpy(b, c);
        if (i % 50 == 0) printf("fib(%d) = %s\n", i, b);
    }
    char f[MAXD] = "1";
    for (int i = 2; i <= 50; i++) mul_small(f, i);
    printf("50! = %s (%zu digits, digit sum %d)\n", f, strlen(f), digit_sum(f));
    char p[MAXD] = "1";
    for (int i = 0; i < 100; i++) mul_small(p, 2);
    printf("2^100 = %s\n", p);
    if (argc == 3) {
        add(argv[1], argv[2], c);
        printf("%s + %s = %s\n", argv[1], argv[2], c);
    }
    return 0;
}
