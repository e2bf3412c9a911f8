// Floating point: float vs double precision, int/float conversions, comparisons, accumulation error.
#include <stdio.h>

static float halve_f(float x) { return x / 2; }
static double halve_d(double x) { return x / 2; }

int main(void) {
    float f = 0.1f;
    double d = 0.1;
    printf("%.20f\n%.20f\n", f, d);
    printf("0.1f == 0.1: %d, (float)0.1 == 0.1f: %d\n", f == d, (float)d == f);
    float fs = 0;
    double ds = 0;
    for (int i = 0; i < 1000; i++) {
        fs += 0.1f;
        ds += 0.1;
    }
    printf("sum float %.10f double %.10f\n", fs, ds);
    printf("sizeof %zu %zu %zu\n", sizeof(float), sizeof(double), sizeof(1.0f + 1.0));
    float big = 16777216.0f;
    printf("float 2^24 + 1 = %.1f\n", big + 1.0f);
    double bigd = 9007199254740992.0;
    printf("double 2^53 + 1 = %.1f\n", bigd + 1.0);
    printf("1/3: %.9f %.17f\n", 1.0f / 3, 1.0 / 3);
    printf("halves %.9g %.17g\n", halve_f(1.0f / 3.0f), halve_d(1.0 / 3.0));
    int i = 7;
    printf("int/int %d, int/double %.4f, (double)int/int %.4f\n", i / 2, i / 2.0, (double)i / 2);
    float ff = 2.75f;
    int fi = ff;
    long long lf = (long long)-1e15;
    printf("float->int %d, double->ll %lld\n", fi, lf);
    unsigned u = 4000000000u;
    float fu = u;
    double du = u;
    printf("uint->float %.1f uint->double %.1f\n", fu, du);
    printf("compare: %d %d %d\n", 0.1 + 0.2 == 0.3, 0.1f + 0.2f == 0.3f, 0.5 + 0.25 == 0.75);
    double eps = 1.0;
    int bits = 0;
    while (1.0 + eps / 2 != 1.0) {
        eps /= 2;
        bits++;
    }
    printf("double epsilon 2^-%d = %g\n", bits, eps);
    float feps = 1.0f;
    bits = 0;
    while ((float)(1.0f + feps / 2) != 1.0f) {
        feps /= 2;
        bits++;
    }
    printf("float epsilon 2^-%d = %g\n", bits, (double)feps);
    double neg0 = -0.0;
    printf("neg zero %.1f equal %d\n", neg0, neg0 == 0.0);
    double x = 1e308;
    printf("overflow to inf: %g, %g\n", x * 10, -x * 10);
    printf("tiny: %g\n", 1e-308 / 1e10);
    float fl = 1e38f;
    printf("float overflow: %g\n", (double)(fl * 10.0f));
    double h = 0;
    for (int k = 1; k <= 100; k++) h += 1.0 / k;
    printf("harmonic(100) = %.15f\n", h);
    return 0;
}
