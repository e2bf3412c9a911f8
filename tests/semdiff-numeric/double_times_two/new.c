double twice(double x) {
    return x + x;
}
