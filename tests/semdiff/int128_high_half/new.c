unsigned long high_of_scaled(unsigned long u) {
    return u;
}
