// Heap: malloc, calloc zeroing, realloc growth preserving contents and shrinking, a growable vector, free, 2-D heap arrays.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vec {
    int *data;
    size_t len, cap;
};

static void vec_push(struct vec *v, int x) {
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 1;
        int *p = realloc(v->data, cap * sizeof *p);
        if (!p) exit(1);
        v->data = p;
        v->cap = cap;
        printf("grew to %zu\n", cap);
    }
    v->data[v->len++] = x;
}

static char *join(const char **parts, int n, char sep) {
    size_t total = 1;
    for (int i = 0; i < n; i++) total += strlen(parts[i]) + 1;
    char *out = malloc(total);
    char *w = out;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(parts[i]);
        memcpy(w, parts[i], l);
        w += l;
        if (i + 1 < n) *w++ = sep;
    }
    *w = '\0';
    return out;
}

int main(void) {
    struct vec v = {NULL, 0, 0};
    for (int i = 0; i < 20; i++) vec_push(&v, i * i);
    long sum = 0;
    for (size_t i = 0; i < v.len; i++) sum += v.data[i];
    printf("len %zu cap %zu sum %ld\n", v.len, v.cap, sum);
    int *shrunk = realloc(v.data, 5 * sizeof(int));
    printf("after shrink %d %d %d %d %d\n", shrunk[0], shrunk[1], shrunk[2], shrunk[3], shrunk[4]);
    free(shrunk);

    double *z = calloc(10, sizeof *z);
    int all_zero = 1;
    for (int i = 0; i < 10; i++) all_zero &= z[i] == 0.0;
    printf("calloc zeroed %d\n", all_zero);
    free(z);

    int rows = 4, cols = 5;
    int **grid = malloc(rows * sizeof *grid);
    for (int r = 0; r < rows; r++) {
        grid[r] = malloc(cols * sizeof **grid);
        for (int c = 0; c < cols; c++) grid[r][c] = r * c;
    }
    int diag = 0;
    for (int r = 0; r < rows; r++) diag += grid[r][r];
    printf("diag %d corner %d\n", diag, grid[3][4]);
    for (int r = 0; r < rows; r++) free(grid[r]);
    free(grid);

    const char *parts[] = {"usr", "local", "share", "ripple"};
    char *path = join(parts, 4, '/');
    printf("joined %s (%zu)\n", path, strlen(path));
    path = realloc(path, strlen(path) + 8);
    strcat(path, "/conf");
    printf("extended %s\n", path);
    free(path);
    char *fresh = realloc(NULL, 16);
    strcpy(fresh, "from realloc");
    printf("%s\n", fresh);
    free(fresh);
    free(NULL);
    unsigned char *bytes = malloc(256);
    for (int i = 0; i < 256; i++) bytes[i] = (unsigned char)(255 - i);
    unsigned check = 0;
    for (int i = 0; i < 256; i++) check = check * 31 + bytes[i];
    printf("checksum %u\n", check);
    free(bytes);
    return 0;
}
