int classify(int x) {
    if (x == 0)
        return 10;
    else if (x == 1 || x == 2)
        return 20;
    else if (x == 7)
        return 70;
    return 0;
}
