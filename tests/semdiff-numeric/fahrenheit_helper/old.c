int to_celsius(int f) {
    return (f - 32) * 5 / 9;
}
