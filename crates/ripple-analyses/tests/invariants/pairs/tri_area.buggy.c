/* buggy: triangle area from base and height forgets the halving */
int task(int base, int height) {
    int area = base * height;
    return area;
}
