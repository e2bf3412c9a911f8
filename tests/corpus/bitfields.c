// Bit-fields: signed and unsigned fields, truncation on store, packing, flags words, arithmetic on fields.
#include <stdio.h>

struct flags {
    unsigned ready : 1;
    unsigned error : 1;
    unsigned mode : 3;
    unsigned count : 11;
};

struct sfields {
    int small : 4;
    int medium : 12;
    unsigned int u : 4;
};

struct date {
    unsigned day : 5;
    unsigned month : 4;
    unsigned year : 12;
};

struct mixed {
    char tag;
    unsigned a : 2;
    unsigned b : 6;
    int after;
};

static unsigned pack_date(struct date d) { return d.year * 10000u + d.month * 100u + d.day; }

int main(void) {
    struct flags f = {0};
    f.ready = 1;
    f.mode = 5;
    f.count = 2047;
    printf("ready %u error %u mode %u count %u size %zu\n", f.ready, f.error, f.mode, f.count,
           sizeof f);
    f.count++;
    printf("count wraps to %u\n", f.count);
    f.mode += 4;
    printf("mode 5+4 in 3 bits = %u\n", f.mode);
    f.error = !f.error;
    printf("error toggled %u\n", f.error);

    struct sfields s = {0, 0, 0};
    s.small = 7;
    printf("small %d\n", s.small);
    s.small = s.small + 1;
    printf("small 7+1 in signed 4 bits = %d\n", s.small);
    s.small = -8;
    s.medium = -1000;
    s.u = 15;
    printf("small %d medium %d u %u\n", s.small, s.medium, s.u);
    s.u = s.u + 1;
    printf("u wraps %u\n", s.u);
    int promoted = s.small * 2;
    printf("promoted arithmetic %d\n", promoted);

    struct date d = {.day = 31, .month = 12, .year = 2024};
    printf("date %u-%02u-%02u packed %u size %zu\n", d.year, d.month, d.day, pack_date(d),
           sizeof d);
    d.day = d.day + 1;
    printf("day 32 stored as %u\n", d.day);
    struct date copy = d;
    copy.month = 1;
    printf("copy month %u original %u\n", copy.month, d.month);

    struct mixed m = {'x', 3, 63, -5};
    printf("mixed %c %u %u %d size %zu\n", m.tag, m.a, m.b, m.after, sizeof m);
    struct flags arr[4];
    for (int i = 0; i < 4; i++) {
        arr[i] = (struct flags){.ready = i & 1, .mode = (unsigned)i * 3, .count = (unsigned)i * 500};
    }
    unsigned total = 0;
    for (int i = 0; i < 4; i++) total += arr[i].ready + arr[i].mode + arr[i].count;
    printf("total %u\n", total);
    return 0;
}
