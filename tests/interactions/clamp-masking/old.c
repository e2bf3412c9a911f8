/* Speeding fines: ZONE SPEED pairs; prints the fine of each reading and the sum. */
#include <stdio.h>
#include <stdlib.h>

struct reading {
    int zone;
    int speed;
};

static int limit_for(int zone)
{
    switch (zone) {
    case 1:
        return 30;
    case 2:
        return 50;
    case 3:
        return 80;
    default:
        return 100;
    }
}

static int cap(int fine)
{
    return fine > 300 ? 300 : fine;
}

static int fine_for(const struct reading *r)
{
    int over = r->speed - limit_for(r->zone);
    if (over <= 0)
        return 0;
    int fine = over * 10;
    return cap(fine);
}

int main(int argc, char **argv)
{
    struct reading readings[8];
    int n = 0;
    for (int i = 1; i + 1 < argc && n < 8; i += 2) {
        readings[n].zone = atoi(argv[i]);
        readings[n].speed = atoi(argv[i + 1]);
        n++;
    }
    int sum = 0;
    for (int k = 0; k < n; k++) {
        int f = fine_for(&readings[k]);
        printf("zone %d speed %d: fine %d\n", readings[k].zone, readings[k].speed, f);
        sum += f;
    }
    printf("total %d\n", sum);
    return 0;
}
