/* A bank account: BALANCE LIMIT AMOUNT...; each amount is a withdrawal. */
#include <stdio.h>
#include <stdlib.h>

struct account {
    int id;
    int balance;
    int limit;
    int fees;
    int refused;
};

static int withdraw(struct account *a, int amount)
{
    if (amount <= 0)
        return -1;
    int fee = amount / 20;
    a->fees += fee;
    a->balance -= amount + fee;
    return 0;
}

static void report(const struct account *a)
{
    printf("account %d: balance %d, fees %d, refused %d\n", a->id, a->balance, a->fees,
           a->refused);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        printf("usage: BALANCE LIMIT AMOUNT...\n");
        return 2;
    }
    struct account acct = {7, 0, 0, 0, 0};
    acct.balance = atoi(argv[1]);
    acct.limit = atoi(argv[2]);
    for (int i = 3; i < argc; i++) {
        int amount = atoi(argv[i]);
        if (withdraw(&acct, amount) != 0) {
            acct.refused++;
            printf("refused %d\n", amount);
        } else {
            printf("paid %d\n", amount);
        }
    }
    report(&acct);
    return 0;
}
