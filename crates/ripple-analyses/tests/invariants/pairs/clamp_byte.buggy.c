/* buggy: clamping to 0..255 forgets the lower end */
int task(int v) {
    if (v > 255)
        v = 255;
    return v;
}
