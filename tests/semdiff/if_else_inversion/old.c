int f(int x) {
    if (x > 0)
        return x * 2;
    else
        return -x;
}
