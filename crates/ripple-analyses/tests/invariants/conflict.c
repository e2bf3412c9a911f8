/* x > 0 is tested twice and x does not change in between: of the four paths through
   both branches, two take the branch one way and then the other, and cannot run. */
int f(int x) {
    int r = 0;
    if (x > 0)
        r = 1;
    int s = 0;
    if (x > 0)
        s = 2;
    else
        s = 3;
    return r + s;
}
