// Globals with initializers: scalars, arrays, structs, designated initializers, pointers to globals and strings, zero-init.
#include <stdio.h>

struct config {
    const char *name;
    int level;
    double ratio;
    int flags[3];
};

int counter = 7;
int zeroed;
static long big = 1L << 40;
double pi_ish = 3.25;
const char *greeting = "hello";
char message[] = "mutable message";
int primes[] = {2, 3, 5, 7, 11, 13};
int sparse[10] = {[2] = 20, [7] = 70, [9] = 90};
int matrix[2][3] = {{1, 2, 3}, {4, 5, 6}};
struct config defaults = {"default", 1, 0.5, {1, 0, 1}};
struct config custom = {.level = 9, .name = "custom", .flags[2] = 4};
struct config table[] = {
    [1] = {.name = "second", .level = 2},
    [0] = {"first", 1, 1.5, {0}},
};
int *counter_ptr = &counter;
int *third_prime = &primes[2];
const char *names[] = {"zero", "one", "two"};
const char **names_ptr = names;
char letters[5] = {'a', 'b'};
unsigned char bytes[] = "\x01\x02\xff";
struct { int x, y; } anon_global = {3, -3};
static int internal = 5;

static void bump(void) {
    counter++;
    zeroed += 2;
    internal *= 2;
}

int main(void) {
    printf("counter %d zeroed %d big %ld pi %.2f\n", counter, zeroed, big, pi_ish);
    bump();
    bump();
    printf("after bumps %d %d %d via ptr %d\n", counter, zeroed, internal, *counter_ptr);
    printf("%s / %s\n", greeting, message);
    message[0] = 'M';
    printf("%s\n", message);
    int psum = 0;
    for (unsigned i = 0; i < sizeof primes / sizeof primes[0]; i++) psum += primes[i];
    printf("prime sum %d third %d\n", psum, *third_prime);
    for (int i = 0; i < 10; i++) printf("%d ", sparse[i]);
    printf("\nmatrix %d %d\n", matrix[0][2], matrix[1][0]);
    printf("defaults %s %d %.1f %d%d%d\n", defaults.name, defaults.level, defaults.ratio,
           defaults.flags[0], defaults.flags[1], defaults.flags[2]);
    printf("custom %s %d %.1f %d%d%d\n", custom.name, custom.level, custom.ratio, custom.flags[0],
           custom.flags[1], custom.flags[2]);
    for (int i = 0; i < 2; i++) printf("table[%d] %s %d %.1f\n", i, table[i].name, table[i].level, table[i].ratio);
    printf("names %s %s\n", names_ptr[1], *(names + 2));
    printf("letters %c%c zero tail %d %d\n", letters[0], letters[1], letters[2], letters[4]);
    printf("bytes %d %d %d %d size %zu\n", bytes[0], bytes[1], bytes[2], bytes[3], sizeof bytes);
    printf("anon %d %d\n", anon_global.x, anon_global.y);
    third_prime++;
    *third_prime = 8;
    printf("primes[3] now %d\n", primes[3]);
    table[1] = defaults;
    printf("struct assign to global %s\n", table[1].name);
    return 0;
}
