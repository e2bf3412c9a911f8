int smaller(int a, int b) {
    return (unsigned)a < (unsigned)b ? a : b;
}
