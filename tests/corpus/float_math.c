// math.h: sqrt pow sin cos tan exp log floor ceil fabs fmod round trunc atan2 hypot cbrt fmin fmax and f-variants.
#include <stdio.h>
#include <math.h>

int main(void) {
    double xs[] = {0.5, 1.0, 2.0, 2.5, 10.0};
    for (int i = 0; i < 5; i++) {
        double x = xs[i];
        printf("x=%g sqrt %.12f exp %.12g log %.12f sin %.12f cos %.12f\n", x, sqrt(x), exp(x),
               log(x), sin(x), cos(x));
    }
    printf("pow %.6f %.6f %.6f %.6f\n", pow(2, 10), pow(2, 0.5), pow(-2, 3), pow(10, -2));
    printf("tan %.12f atan %.12f asin %.12f acos %.12f\n", tan(0.7), atan(1.0), asin(0.5), acos(0.5));
    printf("sinh %.10f cosh %.10f tanh %.10f\n", sinh(1.0), cosh(1.0), tanh(0.5));
    printf("exp2 %.3f log2 %.6f log10 %.6f\n", exp2(10), log2(1000), log10(12345));
    double rs[] = {2.5, -2.5, 2.4, -2.6, 0.5, -0.0};
    for (int i = 0; i < 6; i++) {
        double r = rs[i];
        printf("r=%g floor %g ceil %g round %g trunc %g lround %ld fabs %g\n", r, floor(r), ceil(r),
               round(r), trunc(r), lround(r), fabs(r));
    }
    printf("fmod %g %g %g %g\n", fmod(7.5, 2), fmod(-7.5, 2), fmod(7.5, -2), fmod(1, 0.3));
    printf("atan2 %.10f %.10f %.10f %.10f\n", atan2(1, 1), atan2(1, -1), atan2(-1, -1), atan2(0, -1));
    printf("hypot %g %.10f\n", hypot(3, 4), hypot(1, 1));
    printf("cbrt %g %g\n", cbrt(27), cbrt(-8));
    printf("fmin %g fmax %g copysign %g %g\n", fmin(2, -3), fmax(2, -3), copysign(3, -0.0),
           copysign(-2, 1));
    float fx = 2.0f;
    printf("sqrtf %.7f powf %.3f sinf %.6f fabsf %.1f floorf %.1f\n", sqrtf(fx), powf(fx, 8),
           sinf(fx), fabsf(-fx), floorf(2.7f));
    printf("sqrt(-1) is nan: %d\n", isnan(sqrt(-1.0)));
    printf("log(0) is -inf: %d\n", isinf(log(0.0)) && log(0.0) < 0);
    double pi = 4 * atan(1.0);
    printf("pi %.15f\n", pi);
    double area = 0;
    int steps = 1000;
    for (int i = 0; i < steps; i++) {
        double x0 = pi * i / steps, x1 = pi * (i + 1) / steps;
        area += (sin(x0) + sin(x1)) / 2 * (x1 - x0);
    }
    printf("integral of sin over [0,pi] %.9f\n", area);
    double guess = 1;
    for (int i = 0; i < 6; i++) guess = (guess + 2 / guess) / 2;
    printf("newton sqrt2 %.15f diff %.3g\n", guess, fabs(guess - sqrt(2)));
    return 0;
}
