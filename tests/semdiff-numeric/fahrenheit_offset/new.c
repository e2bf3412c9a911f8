int to_celsius(int f) {
    return (f - 30) * 5 / 9;
}
