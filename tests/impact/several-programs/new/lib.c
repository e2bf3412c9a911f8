#include "lib.h"

int scale(int x) {
    return x * 3;
}
