/* A calculator: OP A B, with OP one of add, scale, avg, pow; the operation is looked
 * up in a table of function pointers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*binop)(int, int);

struct op {
    const char *name;
    binop fn;
};

static int op_add(int a, int b)
{
    return a + b;
}

static int op_scale(int a, int b)
{
    return a * b / 10;
}

static int op_avg(int a, int b)
{
    return (a + b) / 2;
}

static int ipow(int a, int b)
{
    return b <= 0 ? 1 : a * ipow(a, b - 1);
}

static int op_pow(int a, int b)
{
    if (b > 8) b = 8;
    return ipow(a, b);
}

static const struct op ops[] = {
    {"add", op_add},
    {"scale", op_scale},
    {"avg", op_avg},
    {"pow", op_pow},
};

static const struct op *lookup(const char *name)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        printf("usage: OP A B\n");
        return 2;
    }
    const struct op *op = lookup(argv[1]);
    if (op == NULL) {
        printf("unknown operation %s\n", argv[1]);
        return 1;
    }
    int a = atoi(argv[2]);
    int b = atoi(argv[3]);
    int r = op->fn(a, b);
    printf("%s(%d, %d) = %d\n", op->name, a, b, r);
    return 0;
}
