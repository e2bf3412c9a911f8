static const int table[4] = {10, 20, 30, 40};

int lookup(int i) {
    return table[i & 1];
}
