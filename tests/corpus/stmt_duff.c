// Control flow corner cases: Duff's device (switch into a do-while), case labels inside blocks, loops in switch in loops.
#include <stdio.h>

static void duff_copy(short *to, const short *from, int count) {
    int n = (count + 7) / 8;
    switch (count % 8) {
    case 0: do { *to++ = *from++; /* fall through */
    case 7:      *to++ = *from++; /* fall through */
    case 6:      *to++ = *from++; /* fall through */
    case 5:      *to++ = *from++; /* fall through */
    case 4:      *to++ = *from++; /* fall through */
    case 3:      *to++ = *from++; /* fall through */
    case 2:      *to++ = *from++; /* fall through */
    case 1:      *to++ = *from++;
            } while (--n > 0);
    }
}

static int weird(int x) {
    int r = 0;
    switch (x) {
        for (;;) {
        case 1:
            r += 1;
            if (r > 3) return r;
            /* fall through */
        case 2:
            r += 10;
            if (r > 40) return r;
        }
    default:
        r = -1;
    }
    return r;
}

int main(void) {
    short src[20], dst[20];
    for (int count = 1; count <= 17; count += 4) {
        for (int i = 0; i < 20; i++) { src[i] = (short)(i * 3); dst[i] = -1; }
        duff_copy(dst, src, count);
        int ok = 1;
        for (int i = 0; i < 20; i++) ok &= dst[i] == (i < count ? src[i] : -1);
        printf("duff count %d ok %d\n", count, ok);
    }
    printf("weird %d %d %d\n", weird(1), weird(2), weird(3));
    int grid = 0;
    for (int i = 0; i < 4; i++) {
        switch (i % 3) {
        case 0:
            for (int j = 0; j < 3; j++) {
                if (j == 1) continue;
                grid += j + i * 10;
            }
            break;
        case 1: {
            int k = 0;
            while (k < i) {
                k++;
                if (k == 2) break;
            }
            grid += 100 * k;
            break;
        }
        default:
            do grid += 1000; while (0);
        }
    }
    printf("grid %d\n", grid);
    int n = 0;
outer:
    while (n < 100) {
        n += 7;
        switch (n % 4) {
        case 0: goto outer;
        case 1: n += 1; break;
        case 3: continue;
        }
        n += 2;
    }
    printf("n %d\n", n);
    return 0;
}
