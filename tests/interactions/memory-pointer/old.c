/* Sensor samples: VALUE...; negative readings are sensor glitches. Prints the cleaned
 * samples, their weighted sum and the peak. */
#include <stdio.h>
#include <stdlib.h>

#define MAX_SAMPLES 8

struct sample_set {
    int vals[MAX_SAMPLES];
    int n;
};

static void load(struct sample_set *s, int argc, char **argv)
{
    s->n = 0;
    for (int i = 1; i < argc && s->n < MAX_SAMPLES; i++)
        s->vals[s->n++] = atoi(argv[i]);
}

static void clean(struct sample_set *s)
{
    for (int *p = s->vals; p < s->vals + s->n; p++) {
        if (*p < 0)
            *p = 0;
    }
}

static int weighted(const struct sample_set *s)
{
    int w = 0;
    for (int i = 0; i < s->n; i++)
        w += s->vals[i] * (i + 1);
    return w;
}

static int peak(const int *v, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (v[i] > v[best])
            best = i;
    return best;
}

int main(int argc, char **argv)
{
    struct sample_set s;
    load(&s, argc, argv);
    if (s.n == 0) {
        printf("no samples\n");
        return 1;
    }
    clean(&s);
    for (int i = 0; i < s.n; i++)
        printf("%d%c", s.vals[i], i + 1 < s.n ? ' ' : '\n');
    printf("weighted %d\n", weighted(&s));
    int k = peak(s.vals, s.n);
    printf("peak %d at %d\n", s.vals[k], k);
    return 0;
}
