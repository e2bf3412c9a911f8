// Statements: break and continue in while, do-while, for, nested loops and loops inside switch.
#include <stdio.h>

int main(void) {
    for (int i = 0; i < 10; i++) {
        if (i % 3 == 0) continue;
        if (i == 8) break;
        printf("%d ", i);
    }
    putchar('\n');

    int i = 0;
    while (1) {
        i++;
        if (i & 1) continue;
        if (i > 10) break;
        printf("even %d\n", i);
    }

    int n = 0, skipped = 0;
    do {
        n++;
        if (n % 4 == 0) { skipped++; continue; }
    } while (n < 20);
    printf("do-while n=%d skipped=%d\n", n, skipped);

    int found_r = -1, found_c = -1;
    for (int r = 0; r < 5; r++) {
        for (int c = 0; c < 5; c++) {
            if (c > r) break;
            if ((r * c) % 2) continue;
            if (r * c == 6) { found_r = r; found_c = c; }
        }
        if (found_r >= 0) break;
    }
    printf("found %d %d\n", found_r, found_c);

    for (int k = 0; k < 6; k++) {
        switch (k) {
        case 1:
            continue;
        case 4:
            break;
        default:
            printf("k=%d ", k);
            break;
        }
        if (k == 4) printf("[after switch at 4] ");
    }
    putchar('\n');

    int primes = 0;
    for (int p = 2; p < 50; p++) {
        int d;
        for (d = 2; d * d <= p; d++)
            if (p % d == 0) break;
        if (d * d <= p) continue;
        primes++;
    }
    printf("primes below 50: %d\n", primes);
    return 0;
}
