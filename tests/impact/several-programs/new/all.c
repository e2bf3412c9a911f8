/* The whole tool in one translation unit. */
#include "lib.c"
#include "tool.c"
