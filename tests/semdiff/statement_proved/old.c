unsigned scan(unsigned char *out, const unsigned *in, unsigned n) {
    unsigned i, acc = 0;
    for (i = 0; i < n; i++) {
        unsigned v = in[i] * 2654435761u;
        acc ^= v >> 7;
        out[i] = v;
        if (acc & 1)
            acc = acc * 3 + 1;
        else
            acc /= 2;
    }
    return acc;
}
