#include <math.h>
int roundi(double x) {
    if (!(x > -1e6 && x < 1e6))
        return 0;
    return (int)floor(x + 0.5);
}
