#include <errno.h>
#include <math.h>

int overflowed(double x) {
    errno = 0;
    double r = exp(x);
    (void)r;
    return errno == ERANGE;
}
