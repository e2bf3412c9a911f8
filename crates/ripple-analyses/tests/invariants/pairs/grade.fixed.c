/* reason: for a score of 100 (score - 50) / 10 is 5, above the top grade, so the buggy maximum is 5; the added clamp caps g at 4, reached for scores 90..100. */
int task(int score) {
    if (score < 0 || score > 100)
        return -1;
    int g = (score - 50) / 10;
    if (g < 0)
        g = 0;
    if (g > 4)
        g = 4;
    return g;
}
