/* A stock report: PART-INDEX...; prints, per part, what can be sold and what the
 * stock is worth. */
#include <stdio.h>
#include <stdlib.h>

struct part {
    const char *name;
    int stock;
    int reserved;
    int price;
};

static const struct part parts[] = {
    {"bolt", 120, 20, 2},
    {"nut", 300, 0, 1},
    {"gear", 15, 10, 40},
    {"axle", 0, 0, 90},
    {"plate", 8, 3, 25},
};

static int available(const struct part *p)
{
    int sellable = p->stock - p->reserved - p->stock / 10;
    return sellable;
}

static int worth(const struct part *p)
{
    int value = p->stock * p->price * 9 / 10;
    return value;
}

int main(int argc, char **argv)
{
    int nparts = (int)(sizeof parts / sizeof parts[0]);
    printf("stock report (%d parts)\n", argc - 1);
    for (int i = 1; i < argc; i++) {
        int k = atoi(argv[i]);
        if (k < 0 || k >= nparts) {
            printf("no part %d\n", k);
            continue;
        }
        const struct part *p = &parts[k];
        int a = available(p);
        int w = worth(p);
        printf("%-6s available %4d worth %5d\n", p->name, a, w);
    }
    return 0;
}
