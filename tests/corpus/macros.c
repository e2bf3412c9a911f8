// Preprocessor: object-like and function-like macros, stringify, token pasting, conditional compilation, variadic macros.
#include <stdio.h>

#define SIZE 8
#define SQUARE(x) ((x) * (x))
#define BAD_SQUARE(x) x * x
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a##b
#define MAKE_GETTER(name, value) static int get_##name(void) { return value; }
#define SHOW(expr) printf("%s = %d\n", #expr, (expr))
#define LOG(fmt, ...) printf("log: " fmt "\n", __VA_ARGS__)
#define COUNT_ARGS(...) (sizeof((int[]){__VA_ARGS__}) / sizeof(int))
#define SWAP(t, a, b) do { t tmp_ = (a); (a) = (b); (b) = tmp_; } while (0)
#define FEATURE_A 1
#define VERSION 3

MAKE_GETTER(answer, 42)
MAKE_GETTER(zero, 0)

#if VERSION >= 3
static const char *version_text = "v3 or later";
#elif VERSION == 2
static const char *version_text = "v2";
#else
static const char *version_text = "old";
#endif

int main(void) {
    int arr[SIZE];
    for (int i = 0; i < SIZE; i++) arr[i] = SQUARE(i + 1);
    printf("arr[7] %d\n", arr[7]);
    printf("SQUARE(2+3) %d BAD_SQUARE(2+3) %d\n", SQUARE(2 + 3), BAD_SQUARE(2 + 3));
    int k = 4;
    printf("MAX %d %d\n", MAX(k, 9), MAX(-1, -5));
    printf("%s | %s | %s\n", STR(hello world), STR(SIZE), XSTR(SIZE));
    int CAT(var, 1) = 11, CAT(var, 2) = 22;
    printf("pasted %d %d\n", var1, var2);
    printf("getters %d %d\n", get_answer(), get_zero());
    SHOW(SIZE * 2 + 1);
    SHOW(MAX(3, 7) - SQUARE(2));
    LOG("%d items in %s", SIZE, "arr");
    printf("count args %zu %zu\n", COUNT_ARGS(1, 2, 3), COUNT_ARGS(9));
    int a = 1, b = 2;
    if (a < b)
        SWAP(int, a, b);
    else
        printf("no swap\n");
    printf("swapped %d %d\n", a, b);
    printf("%s\n", version_text);
#ifdef FEATURE_A
    puts("feature A on");
#endif
#ifndef FEATURE_B
    puts("feature B off");
#endif
#if defined(FEATURE_A) && !defined(FEATURE_B) && SIZE > 4
    puts("combined condition true");
#endif
#undef SIZE
#define SIZE 2
    printf("redefined SIZE %d\n", SIZE);
#if 0
    this is not compiled at all
#endif
    printf("line %d, function %s\n", __LINE__ > 0, __func__);
    return 0;
}
