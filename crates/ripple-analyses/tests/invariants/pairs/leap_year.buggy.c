/* buggy: only the divisibility by 4 is tested */
int task(int y) {
    int leap = (y % 4 == 0);
    return leap;
}
