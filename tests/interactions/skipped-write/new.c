/* A connection configuration: LEVEL [RETRIES]; the level may override the default
 * timeout. */
#include <stdio.h>
#include <stdlib.h>

struct config {
    int level;
    int timeout;
    int retries;
};

static void set_defaults(struct config *c)
{
    c->level = 1;
    c->timeout = 45;
    c->retries = 3;
}

static void apply_level(struct config *c, int level)
{
    c->level = level;
    if (level >= 5)
        c->timeout = 10;
    if (level >= 6)
        c->retries = 1;
}

static int budget(const struct config *c)
{
    return c->timeout * (c->retries + 1);
}

int main(int argc, char **argv)
{
    struct config cfg;
    set_defaults(&cfg);
    if (argc > 1)
        apply_level(&cfg, atoi(argv[1]));
    if (argc > 2)
        cfg.retries = atoi(argv[2]);
    printf("level %d timeout %d retries %d\n", cfg.level, cfg.timeout, cfg.retries);
    printf("budget %d\n", budget(&cfg));
    return 0;
}
