/* reason: the area of a triangle is half of base * height; the buggy version returns the area of the rectangle, and only the halved value is bounded by INT_MAX / 2 and INT_MIN / 2. */
int task(int base, int height) {
    int area = (base * height) / 2;
    return area;
}
