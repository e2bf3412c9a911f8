// Floating point formatting: printf %f %e %g %.17g with widths, precisions, flags, special values.
#include <stdio.h>

int main(void) {
    double vals[] = {0.0, 1.0, -1.5, 3.14159265358979, 123456.789, 1e-5, 1e20, 2.5e-300, 0.1,
                     100.0, 1234567.0, 0.000123456};
    int n = sizeof vals / sizeof vals[0];
    for (int i = 0; i < n; i++) {
        double v = vals[i];
        printf("%f | %e | %g | %.17g\n", v, v, v, v);
    }
    double pi = 3.14159265358979;
    printf("[%10.3f] [%-10.3f] [%+.2f] [%010.4f] [% .1f]\n", pi, pi, pi, -pi, pi);
    printf("[%.0f] [%.0f] [%.0f] [%.0f] [%#.0f]\n", 0.5, 1.5, 2.5, -0.5, 3.0);
    printf("[%12.4e] [%-12.2E] [%G] [%g]\n", pi * 1e10, pi, 1e-10, 1e-4);
    printf("[%.3g] [%.10g] [%#g] [%g]\n", pi, pi, 1.0, 100000.0);
    printf("[%g] [%g] [%g]\n", 1000000.0, 10000000.0, 0.0001);
    printf("[%*.*f] [%-*d]\n", 8, 2, pi, 5, 42);
    float f = 1.1f;
    printf("float %f %.10f %g %.9g\n", f, f, f, f);
    printf("%.17g %.17g\n", 0.1 + 0.2, 1.0 / 3);
    printf("%.3f %.3f %.3f\n", 2.0005, 2.0015, -2.0005);
    printf("%5.1f%%\n", 99.44);
    double inf = 1e308 * 10;
    printf("%f %f %e %g\n", inf, -inf, inf, -inf);
    printf("%.2f %.2e\n", 1e15, 123.456);
    printf("%8.3f|%-8.3f|%08.3f\n", -1.0, -1.0, -1.0);
    long double ld = 1.5;
    printf("%.3Lf\n", ld);
    char buf[64];
    snprintf(buf, sizeof buf, "%.6g/%.6g", 2.0 / 3, 200.0 / 3);
    puts(buf);
    return 0;
}
