// Macro expansions the grammar misreads without knowing typedefs: `(x)*y`, `(x)-1`, `(x)&&y` with a variable in parentheses, and casts `(T)(e)[i]`, `(T)(e).f`, `(T)(U)(e)`, `(T)(U)*p` to typedef names.
#include <stdio.h>

#pragma GCC diagnostic ignored "-Wparentheses"

typedef signed char i8;
typedef unsigned char u8;
typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;

#define ALWAYS(X) (X)
#define ONE_BYTE_INT(x) ((i8)(x)[0])
#define TWO_BYTE_INT(x) (256 * (i8)((x)[0]) | (x)[1])
#define FOUR_BYTE_UINT(x) (((u32)(x)[0] << 24) | ((x)[1] << 16) | ((x)[2] << 8) | (x)[3])
#define INT32_TO_64(a, b) (i64)(((u64)(u32)(b) << 32) | (u32)(a))
#define FRAME_OFFSET(iFrame, szPage) (32 + ((iFrame)-1) * (i64)((szPage) + 24))
#define SCALE(x, y) ((x)*y)
#define BITS(x, y) ((x)&y)
#define DIFF(x, y) ((x)-y)

struct cfg { int nInitPage; long scale; };
struct node { struct node *next; int v; };
static struct cfg cfg_g = {12, 3};
static const u8 ctype[256] = {['a'] = 0x46, ['z'] = 0x46, ['_'] = 0x40, ['1'] = 0x0c};
static int calls;

static int touch(struct node *p) { calls++; return p->v > 0; }

int main(void) {
    u8 buf[4] = {0xfe, 0x01, 0x80, 0x7f};
    int szPage = 1024, sz = 4096, n = 0;
    printf("one %d two %d four %u\n", ONE_BYTE_INT(buf), TWO_BYTE_INT(buf), FOUR_BYTE_UINT(buf));
    printf("four+2 %u\n", FOUR_BYTE_UINT(buf + 1 - 1) + (u32)(((i64)1) << 3));
    int p1 = -5, p3 = 7;
    i64 v = INT32_TO_64(p1, p3);
    u64 w = (u64)INT32_TO_64(p3, p1);
    printf("int32_to_64 %lld %llu\n", v, w);
    printf("frame %lld %lld\n", FRAME_OFFSET(3, szPage), FRAME_OFFSET(n + 2, sz) + 24);
    i64 bulk = 100 * (i64)(cfg_g).nInitPage;
    i64 neg = -1024 * (i64)(cfg_g).scale;
    printf("bulk %lld %lld\n", bulk, neg);

    struct node c = {0, 5}, b = {&c, 0}, a = {&b, -1};
    struct node *pList = &a, *pBt = &c;
    int steps = 0;
    while (ALWAYS(pList) && pList->next != pBt) {
        pList = pList->next;
        steps++;
    }
    printf("steps %d\n", steps);
    struct node *q = 0;
    calls = 0;
    int r1 = ALWAYS(q) && touch(q);
    int r2 = ALWAYS(pBt) && touch(pBt);
    printf("short-circuit %d %d calls %d\n", r1, r2, calls);
    const char *zSpan = "ab.cd";
    for (n = 0; ALWAYS(zSpan[n]) && zSpan[n] != '.'; n++) {
    }
    printf("span %d\n", n);

    int x = 6, y = 7;
    printf("scale %d %d bits %d %d diff %d %d\n", SCALE(x, y), SCALE(x, y + 1), BITS(x, y),
           BITS(x, 3 | 8), DIFF(x, 1), DIFF(x, 1 * y));
    int *py = &y;
    printf("deref %d\n", SCALE(x, *py));

    const char *zSql = "az_1 ";
    int ids = 0;
    for (const char *s = zSql; *s; s++)
        if ((ctype[(unsigned char)(u8)*s] & 0x46) != 0)
            ids++;
    printf("ids %d\n", ids);
    i8 arr[2] = {-3, 4};
    i8 *pa = arr;
    printf("casts %d %u\n", (int)(i8)(pa)[0], (u32)(u8)(arr[1]));
    struct node *pn = &c;
    long lv = (long)(pn)->v;
    printf("member %ld\n", lv + (long)(&a)->v);
    return 0;
}
