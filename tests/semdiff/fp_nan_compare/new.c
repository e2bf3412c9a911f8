#include <math.h>
int not_less(double x, double y) {
    return x >= y;
}
