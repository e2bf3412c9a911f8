double twice(double x) {
    return x * 2.0;
}
