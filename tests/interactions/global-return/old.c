/* A print shop: MODE PAGES...; the mode (normal, fast, turbo) sets a global price
 * factor, each job costs its base cost times the factor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int factor = 1;
static int jobs_done = 0;

static void configure(const char *mode)
{
    if (strcmp(mode, "fast") == 0)
        factor = 2;
    else if (strcmp(mode, "turbo") == 0)
        factor = 3;
}

static int base_cost(int pages)
{
    if (pages > 10)
        return 10 + (pages - 10) / 2;
    return pages;
}

static int job_cost(int pages)
{
    jobs_done++;
    return base_cost(pages) * factor;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        printf("usage: MODE PAGES...\n");
        return 2;
    }
    configure(argv[1]);
    int total = 0;
    for (int i = 2; i < argc; i++) {
        int pages = atoi(argv[i]);
        int c = job_cost(pages);
        printf("job %d: %d pages, cost %d\n", jobs_done, pages, c);
        total += c;
    }
    printf("%d jobs, total %d\n", jobs_done, total);
    return 0;
}
