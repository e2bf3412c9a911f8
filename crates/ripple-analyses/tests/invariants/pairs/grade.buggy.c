/* buggy: grade points (score - 50) / 10 clamped below only; a score of 100 gives 5 */
int task(int score) {
    if (score < 0 || score > 100)
        return -1;
    int g = (score - 50) / 10;
    if (g < 0)
        g = 0;
    return g;
}
