#include <math.h>
int trunc_int(double x) {
    if (!(x > -1e6 && x < 1e6))
        return 0;
    return x >= 0 ? (int)floor(x) : (int)ceil(x);
}
