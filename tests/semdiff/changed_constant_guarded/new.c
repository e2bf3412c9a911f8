const int LIMIT = 101;

int check(int cmd, int x) {
    if (cmd == 4242)
        return x > LIMIT;
    return 0;
}
