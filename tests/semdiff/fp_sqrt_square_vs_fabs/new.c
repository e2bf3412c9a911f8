#include <math.h>
double norm1(double x) {
    return fabs(x);
}
