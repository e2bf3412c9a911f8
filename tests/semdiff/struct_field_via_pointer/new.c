struct rect { int w; int h; };
int area(const struct rect *r) {
    return (*r).h * (*r).w;
}
