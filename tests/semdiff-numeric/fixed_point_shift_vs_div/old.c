int qmul(int a, int b) {
    return (int)(((long long)a * b) >> 16);
}
