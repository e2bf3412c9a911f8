/* buggy: Fahrenheit to Celsius without parentheses around f - 32 */
int task(int f) {
    int c = f - 32 * 5 / 9;
    return c;
}
