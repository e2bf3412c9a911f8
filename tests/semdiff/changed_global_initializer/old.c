int g = 1;

int f(int x) {
    return x + g;
}
