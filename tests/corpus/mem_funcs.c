// string.h memory functions: memcpy, memmove with overlap, memset, memcmp, memchr on bytes and structs.
#include <stdio.h>
#include <string.h>

struct rec {
    int id;
    char name[12];
    double score;
};

static void show(const char *label, const int *v, int n) {
    printf("%s:", label);
    for (int i = 0; i < n; i++) printf(" %d", v[i]);
    putchar('\n');
}

static int sign(int v) { return (v > 0) - (v < 0); }

int main(void) {
    int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int b[8];
    memcpy(b, a, sizeof a);
    show("copy", b, 8);
    memmove(a + 2, a, 5 * sizeof(int));
    show("move right", a, 8);
    memmove(a, a + 3, 5 * sizeof(int));
    show("move left", a, 8);
    memset(b, 0, sizeof b);
    show("zeroed", b, 8);
    memset(b, 0xFF, 3 * sizeof(int));
    show("ff bytes", b, 8);
    memset(b, 1, sizeof(int));
    printf("0x01010101 = %d\n", b[0]);

    char s[] = "abcdefghij";
    memmove(s + 1, s, 5);
    printf("char move %s\n", s);
    memcpy(s, "XYZ", 3);
    printf("char copy %s\n", s);
    printf("memcmp %d %d %d\n", sign(memcmp("abc", "abd", 3)), sign(memcmp("abc", "abd", 2)),
           sign(memcmp("\xff", "\x01", 1)));
    const char *hay = "find the needle";
    const char *hit = memchr(hay, 'n', strlen(hay));
    printf("memchr '%s' missing %d\n", hit, memchr(hay, 'z', strlen(hay)) == NULL);

    struct rec r1;
    memset(&r1, 0, sizeof r1);
    r1.id = 42;
    strcpy(r1.name, "ripple");
    r1.score = 9.5;
    struct rec r2;
    memcpy(&r2, &r1, sizeof r1);
    printf("struct copy %d %s %.1f equal %d\n", r2.id, r2.name, r2.score,
           memcmp(&r1, &r2, sizeof r1) == 0);
    r2.name[0] = 'R';
    printf("after change equal %d\n", memcmp(&r1, &r2, sizeof r1) == 0);
    struct rec arr[3];
    memset(arr, 0, sizeof arr);
    for (int i = 0; i < 3; i++) {
        arr[i].id = i + 1;
        memcpy(arr[i].name, "item", 5);
        arr[i].name[4] = (char)('0' + i);
    }
    memmove(&arr[1], &arr[0], 2 * sizeof arr[0]);
    for (int i = 0; i < 3; i++) printf("%d:%s ", arr[i].id, arr[i].name);
    putchar('\n');
    double d = -1.0;
    unsigned char bytes[sizeof d];
    memcpy(bytes, &d, sizeof d);
    printf("double bytes:");
    for (size_t i = 0; i < sizeof d; i++) printf(" %02x", bytes[i]);
    putchar('\n');
    return 0;
}
