/* reason: x is clamped to 0..639, so the mirror image on a 640-pixel row is 639 - x (0..639); the buggy 640 - x is the same line shifted by one (1..640). */
int task(int x) {
    if (x < 0)
        x = 0;
    if (x > 639)
        x = 639;
    int rx = 639 - x;
    return rx;
}
