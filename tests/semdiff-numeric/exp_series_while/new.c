double exp_series(double x) {
    double sum = 1.0;
    double term = 1.0;
    int k = 1;
    while (k < 12) {
        term = term * x / k;
        sum = sum + term;
        k++;
    }
    return sum;
}
