int table[4] = {10, 20, 30, 41};

int lookup(int i) {
    return table[i & 3];
}
