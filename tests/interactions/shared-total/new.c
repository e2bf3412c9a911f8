/* An order: PRICE QTY pairs on the command line; prints the bill. */
#include <stdio.h>
#include <stdlib.h>

#define MAX_ITEMS 6

struct item {
    int price;
    int qty;
};

struct order {
    struct item items[MAX_ITEMS];
    int count;
};

static int parse_order(struct order *o, int argc, char **argv)
{
    o->count = 0;
    for (int i = 1; i + 1 < argc && o->count < MAX_ITEMS; i += 2) {
        struct item *it = &o->items[o->count];
        it->price = atoi(argv[i]);
        it->qty = atoi(argv[i + 1]);
        if (it->price < 0 || it->qty < 0)
            return -1;
        o->count++;
    }
    return o->count;
}

static int line_total(const struct item *it)
{
    int amount = it->price * (it->qty - it->qty / 10);
    return amount;
}

static int subtotal(const struct order *o)
{
    int sum = 0;
    for (int i = 0; i < o->count; i++)
        sum += line_total(&o->items[i]);
    return sum;
}

int main(int argc, char **argv)
{
    struct order o;
    if (parse_order(&o, argc, argv) <= 0) {
        printf("no order\n");
        return 1;
    }
    int sum = subtotal(&o);
    int discount = 0;
    if (sum >= 100)
        discount = sum / 8;

    int shipping = 6;
    int total = sum - discount + shipping;
    printf("subtotal %d\n", sum);
    printf("discount %d\n", discount);
    printf("shipping %d\n", shipping);
    printf("total %d\n", total);
    return 0;
}
