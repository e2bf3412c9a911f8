short g = 32767;

/* g wraps to -32768 when it is a short. */
int bump(void) {
    g = g + 1;
    return g < 0;
}
