int g = 2;

int f(int x) {
    return x + g;
}
