int classify(int x) {
    int r;
    switch (x) {
    case 0: r = 10; break;
    case 1:
    case 2: r = 20; break;
    default: r = 30;
    }
    return r;
}

int signum(int x) {
    int s = 0;
    if (x > 0) s = 1;
    else if (x < 0) s = -1;
    return s;
}

int max3(int a, int b, int c) {
    int m = a;
    if (b > m) m = b;
    if (c > m) m = c;
    return m;
}

int shortcut(int a, int b) {
    int r = 0;
    if (a > 0 && b > 0) r = a < b ? a : b;
    return r;
}
