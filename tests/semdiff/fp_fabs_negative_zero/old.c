#include <math.h>
double mag(double x) {
    if (x < 0)
        return -x;
    return x;
}
