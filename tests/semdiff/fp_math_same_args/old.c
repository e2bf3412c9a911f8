#include <math.h>
double f(double x) {
    return sin(x * 2.0) + 1.0;
}
