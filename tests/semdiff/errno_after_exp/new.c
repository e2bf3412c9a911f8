#include <errno.h>
#include <math.h>

int overflowed(double x) {
    double r = exp(x);
    (void)r;
    errno = 0;
    return errno == ERANGE;
}
