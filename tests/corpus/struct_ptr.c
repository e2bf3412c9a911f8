// Structs: pointers to structs, -> chains, structs containing pointers, arrays of struct pointers, offsetof.
#include <stdio.h>
#include <stddef.h>
#include <string.h>

struct account {
    char owner[16];
    long balance;
    struct account *partner;
};

struct bank {
    struct account accounts[3];
    int count;
};

static void deposit(struct account *a, long amount) { a->balance += amount; }

static int transfer(struct account *from, struct account *to, long amount) {
    if (from->balance < amount) return 0;
    from->balance -= amount;
    to->balance += amount;
    return 1;
}

static struct account *richest(struct bank *b) {
    struct account *best = &b->accounts[0];
    for (int i = 1; i < b->count; i++)
        if (b->accounts[i].balance > best->balance) best = b->accounts + i;
    return best;
}

static void init(struct account *a, const char *owner, long balance) {
    strcpy(a->owner, owner);
    a->balance = balance;
    a->partner = NULL;
}

int main(void) {
    struct bank bank;
    bank.count = 3;
    init(&bank.accounts[0], "ann", 100);
    init(&bank.accounts[1], "bob", 50);
    init(&bank.accounts[2], "cyd", 75);
    struct account *ann = &bank.accounts[0], *bob = &bank.accounts[1], *cyd = bank.accounts + 2;
    ann->partner = bob;
    bob->partner = cyd;
    cyd->partner = ann;
    deposit(bob, 25);
    printf("transfer ok %d\n", transfer(ann, cyd, 60));
    printf("transfer ok %d\n", transfer(ann, cyd, 60));
    for (int i = 0; i < bank.count; i++)
        printf("%s: %ld -> partner %s\n", bank.accounts[i].owner, bank.accounts[i].balance,
               bank.accounts[i].partner->owner);
    printf("richest %s\n", richest(&bank)->owner);
    printf("chain %s\n", ann->partner->partner->partner->owner);
    ann->partner->partner->balance += 1;
    printf("cyd now %ld\n", cyd->balance);
    (*bob).balance = 0;
    printf("bob via (*p). %ld\n", bank.accounts[1].balance);
    struct account *list[3] = {cyd, ann, bob};
    long total = 0;
    for (int i = 0; i < 3; i++) total += list[i]->balance;
    printf("total %ld\n", total);
    printf("offsets %zu %zu %zu size %zu\n", offsetof(struct account, owner),
           offsetof(struct account, balance), offsetof(struct account, partner),
           sizeof(struct account));
    char *base = (char *)cyd;
    long *bal = (long *)(base + offsetof(struct account, balance));
    *bal = 7;
    printf("via offsetof %ld\n", cyd->balance);
    /* gnulib's FLEXSIZEOF: offsetof in parentheses followed by an operator. */
    size_t flex = ((offsetof(struct account, partner) + sizeof(long) - 1 + (3))
                   & ~(sizeof(long) - 1));
    printf("flex %zu\n", flex);
    struct bank *bp = &bank;
    bp->accounts[1].owner[0] = 'B';
    printf("%s %zu\n", bp->accounts[1].owner, strlen(bp->accounts[1].owner));
    const struct account *ro = ann;
    printf("const view %s %ld\n", ro->owner, ro->balance);
    return 0;
}
