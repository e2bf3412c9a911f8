#include <limits.h>
int sat_add(int a, int b) {
    long long s = (long long)a + b;
    if (s > INT_MAX)
        return INT_MAX;
    if (s < INT_MIN)
        return INT_MIN;
    return (int)s;
}
