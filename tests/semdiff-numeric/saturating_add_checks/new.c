#include <limits.h>
int sat_add(int a, int b) {
    if (b > 0 && a > INT_MAX - b)
        return INT_MAX;
    if (b < 0 && a < INT_MIN - b)
        return INT_MIN;
    return a + b;
}
