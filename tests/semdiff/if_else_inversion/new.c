int f(int x) {
    if (x <= 0)
        return -x;
    else
        return x * 2;
}
