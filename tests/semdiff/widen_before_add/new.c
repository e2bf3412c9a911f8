long add(int a, int b) {
    return (long)a + b;
}
