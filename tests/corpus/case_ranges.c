// GNU case ranges in every form the parser leaves apart: bounds of one digit count or
// of several, characters with and without spaces around `...`, negative bounds.
#include <stdio.h>

static int classify(int c) {
    switch (c) {
    case 'a' ... 'z':
        return 1;
    case 'A'...'Z':
        return 2;
    case '0' ... '9':
        return 3;
    case 1 ... 20:
        return 4;
    case 130 ... 160:
        return 5;
    case -9 ... -1:
        return 6;
    case 200 ... 1000:
        return 7;
    default:
        return 0;
    }
}

int main(void) {
    int probes[] = {'a', 'm', 'z', 'A', 'Q', 'Z', '0', '5', '9', 0, 1, 7, 20, 21,
                    130, 160, 161, -9, -1, -10, 199, 200, 1000, 1001};
    for (unsigned i = 0; i < sizeof probes / sizeof probes[0]; i++)
        printf("%d:%d ", probes[i], classify(probes[i]));
    printf("\n");
    return 0;
}
