#include <stdio.h>
#include <stdlib.h>

/* Writes its results to out.txt, one per line; prints only whether it could. */
int main(int argc, char **argv) {
    int x = argc > 1 ? atoi(argv[1]) : 1;
    int y = argc > 2 ? atoi(argv[2]) : 2;
    FILE *f = fopen("out.txt", "w");
    if (!f)
        return 1;
    int a = x * 2;
    int b = y + 1;
    fprintf(f, "%d\n", a);
    fprintf(f, "%d\n", b);
    fprintf(f, "%d\n", x > 3 ? a : b);
    fclose(f);
    puts("written");
    return 0;
}
