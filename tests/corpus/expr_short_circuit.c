// Expressions: && and || short-circuit evaluation with side effects, in conditions and as values.
#include <stdio.h>

static int trace[32];
static int ntrace = 0;

static int t(int id, int value) {
    trace[ntrace++] = id;
    return value;
}

static void dump(const char *label, int result) {
    printf("%s = %d, evaluated:", label, result);
    for (int i = 0; i < ntrace; i++) printf(" %d", trace[i]);
    putchar('\n');
    ntrace = 0;
}

int main(void) {
    dump("1&&1", t(1, 1) && t(2, 1));
    dump("0&&1", t(1, 0) && t(2, 1));
    dump("1||0", t(1, 1) || t(2, 0));
    dump("0||0", t(1, 0) || t(2, 0));
    dump("0||1&&0", t(1, 0) || (t(2, 1) && t(3, 0)));
    dump("(1||x)&&0", (t(1, 1) || t(2, 1)) && t(3, 0));
    dump("1&&0||1", (t(1, 1) && t(2, 0)) || t(3, 1));
    dump("values", t(1, 5) && t(2, -3));

    int i = 0;
    int r = (i++ > 0) && (i++ > 0);
    printf("i=%d r=%d\n", i, r);
    r = (i++ > 0) || (i++ > 0);
    printf("i=%d r=%d\n", i, r);

    int arr[4] = {3, 1, 4, 1};
    int idx = 0;
    while (idx < 4 && arr[idx] != 4) idx++;
    printf("found 4 at %d\n", idx);
    idx = 0;
    while (idx < 4 && arr[idx] != 9) idx++;
    printf("9 not found, idx=%d\n", idx);

    const char *s = 0;
    if (s && *s) puts("never");
    else puts("null guarded");
    s = "";
    if (s && *s) puts("never");
    else puts("empty guarded");

    int count = 0;
    for (int k = 0; k < 10; k++)
        if ((k % 2 == 0 || ++count > 100) && (k % 3 == 0 || ++count < 0))
            printf("k=%d ", k);
    printf("count=%d\n", count);

    int x = 2;
    int y = x > 1 ? (x < 3 && t(9, 1)) : t(8, 0);
    dump("ternary with &&", y);
    return 0;
}
