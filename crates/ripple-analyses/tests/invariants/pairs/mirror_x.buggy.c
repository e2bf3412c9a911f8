/* buggy: mirroring x in a 640-pixel-wide screen (x clamped to 0..639) with 640 - x, off by one */
int task(int x) {
    if (x < 0)
        x = 0;
    if (x > 639)
        x = 639;
    int rx = 640 - x;
    return rx;
}
