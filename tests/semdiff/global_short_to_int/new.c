int g = 32767;

/* g becomes 32768 when it is an int. */
int bump(void) {
    g = g + 1;
    return g < 0;
}
