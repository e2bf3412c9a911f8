#include <math.h>
double f(double x) {
    double y = x + x;
    return 1.0 + sin(y);
}
