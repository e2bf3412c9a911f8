double exp_series(double x) {
    double sum = 1.0, term = 1.0;
    for (int k = 1; k < 12; k++) {
        term = term * x / k;
        sum += term;
    }
    return sum;
}
