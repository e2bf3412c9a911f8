unsigned fnv1a(unsigned x) {
    unsigned h = 2166136261u;
    h = (h ^ (x & 0xffu)) * 16777619u;
    h = (h ^ ((x >> 8) & 0xffu)) * 16777619u;
    h = (h ^ ((x >> 16) & 0xffu)) * 16777619u;
    h = (h ^ (x >> 24)) * 16777619u;
    return h;
}
