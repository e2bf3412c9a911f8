#include <math.h>
double mag(double x) {
    return fabs(x);
}
