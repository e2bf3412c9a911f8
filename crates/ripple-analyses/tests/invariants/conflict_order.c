/* Three comparisons of a, b and c, none repeated: of the eight paths through the three
   branches, the one with a < b, b < c and c < a cannot run (a < b < c < a), though no
   branch is taken both ways. The other seven can: a = b = c takes none of them, and
   each other combination has an input (a < b alone: a = 0, b = 2, c = 1). */
int g(int a, int b, int c) {
    int r = 0;
    if (a < b)
        r += 1;
    if (b < c)
        r += 2;
    if (c < a)
        r += 4;
    return r;
}
