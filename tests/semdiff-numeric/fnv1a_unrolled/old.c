unsigned fnv1a(unsigned x) {
    unsigned h = 2166136261u;
    for (int i = 0; i < 4; i++) {
        h ^= (x >> (8 * i)) & 0xffu;
        h *= 16777619u;
    }
    return h;
}
