/* Test selection: `prog area W H`, `prog perimeter W H` or `prog scale W H K`.
 * The new version fixes `perimeter` (it forgot one side) and changes nothing else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int area(int w, int h) {
    return w * h;
}

static int perimeter(int w, int h) {
    return 2 * w + 2 * h;
}

static int scale(int w, int h, int k) {
    return area(w * k, h * k);
}

int main(int argc, char *argv[]) {
    if (argc < 4) {
        fprintf(stderr, "usage: prog area|perimeter|scale W H [K]\n");
        return 2;
    }
    int w = atoi(argv[2]), h = atoi(argv[3]);
    if (strcmp(argv[1], "area") == 0)
        printf("%d\n", area(w, h));
    else if (strcmp(argv[1], "perimeter") == 0)
        printf("%d\n", perimeter(w, h));
    else if (strcmp(argv[1], "scale") == 0 && argc == 5)
        printf("%d\n", scale(w, h, atoi(argv[4])));
    else
        return 2;
    return 0;
}
