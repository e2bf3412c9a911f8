// Arrays of structs: initialization, passing to functions, sorting by hand, sizeof of elements, structs holding arrays.
#include <stdio.h>
#include <string.h>

struct item {
    char name[12];
    int qty;
    double price;
};

struct inventory {
    struct item items[6];
    int count;
};

static double total_value(const struct item *items, int n) {
    double t = 0;
    for (int i = 0; i < n; i++) t += items[i].qty * items[i].price;
    return t;
}

static void restock(struct item items[], int n, int threshold, int amount) {
    for (int i = 0; i < n; i++)
        if (items[i].qty < threshold) items[i].qty += amount;
}

static void sort_by_price(struct item *items, int n) {
    for (int i = 1; i < n; i++) {
        struct item key = items[i];
        int j = i - 1;
        while (j >= 0 && items[j].price > key.price) {
            items[j + 1] = items[j];
            j--;
        }
        items[j + 1] = key;
    }
}

static int add(struct inventory *inv, const char *name, int qty, double price) {
    if (inv->count == (int)(sizeof inv->items / sizeof inv->items[0])) return 0;
    struct item *it = &inv->items[inv->count++];
    strcpy(it->name, name);
    it->qty = qty;
    it->price = price;
    return 1;
}

static struct item cheapest(struct inventory inv) {
    sort_by_price(inv.items, inv.count);
    return inv.items[0];
}

int main(void) {
    struct item stock[] = {
        {"widget", 10, 2.50}, {"gadget", 3, 10.00}, {"doohickey", 0, 7.25}, {"gizmo", 25, 0.99},
    };
    int n = sizeof stock / sizeof stock[0];
    printf("%d items, sizeof item %zu, array %zu\n", n, sizeof(struct item), sizeof stock);
    printf("value %.2f\n", total_value(stock, n));
    restock(stock, n, 5, 12);
    printf("after restock value %.2f, doohickey qty %d\n", total_value(stock, n), stock[2].qty);
    sort_by_price(stock, n);
    for (int i = 0; i < n; i++) printf("  %-10s %3d %6.2f\n", stock[i].name, stock[i].qty, stock[i].price);
    struct inventory inv = {.count = 0};
    const char *names[] = {"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "ggggggg"};
    int added = 0;
    for (int i = 0; i < 7; i++) added += add(&inv, names[i], i + 1, 10.0 - i * 1.5);
    printf("added %d of 7, count %d\n", added, inv.count);
    struct item c = cheapest(inv);
    printf("cheapest %s %.2f; original order kept: %s\n", c.name, c.price, inv.items[0].name);
    struct item grid[2][2] = {{{"p", 1, 1.0}, {"q", 2, 2.0}}, {{"r", 3, 3.0}, {"s", 4, 4.0}}};
    double diag = grid[0][0].price * grid[0][0].qty + grid[1][1].price * grid[1][1].qty;
    printf("grid diag %.1f name %s\n", diag, grid[1][0].name);
    return 0;
}
