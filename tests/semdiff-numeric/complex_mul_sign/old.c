struct cpx {
    double re, im;
};
double cmul_re(struct cpx x, struct cpx y) {
    return x.re * y.re - x.im * y.im;
}
