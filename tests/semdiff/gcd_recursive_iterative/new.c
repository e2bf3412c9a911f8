unsigned gcd(unsigned a, unsigned b) {
    while (b != 0) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}
