int classify(int x) {
    switch (x) {
    case 0:
        return 10;
    case 1:
    case 2:
        return 20;
    case 7:
        return 70;
    default:
        return 0;
    }
}
