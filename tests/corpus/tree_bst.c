// Recursion over a binary search tree built with malloc: insert, traversals, height, count, lookup, free.
#include <stdio.h>
#include <stdlib.h>

typedef struct tree {
    int key;
    int count;
    struct tree *left, *right;
} tree;

static tree *insert(tree *t, int key) {
    if (!t) {
        t = calloc(1, sizeof *t);
        t->key = key;
        t->count = 1;
    } else if (key < t->key) {
        t->left = insert(t->left, key);
    } else if (key > t->key) {
        t->right = insert(t->right, key);
    } else {
        t->count++;
    }
    return t;
}

static void inorder(const tree *t) {
    if (!t) return;
    inorder(t->left);
    printf(" %d", t->key);
    if (t->count > 1) printf("x%d", t->count);
    inorder(t->right);
}

static void preorder(const tree *t) {
    if (!t) { printf(" ."); return; }
    printf(" %d", t->key);
    preorder(t->left);
    preorder(t->right);
}

static int height(const tree *t) {
    if (!t) return 0;
    int l = height(t->left), r = height(t->right);
    return 1 + (l > r ? l : r);
}

static int size(const tree *t) { return t ? 1 + size(t->left) + size(t->right) : 0; }

static const tree *find(const tree *t, int key) {
    while (t && t->key != key) t = key < t->key ? t->left : t->right;
    return t;
}

static int sum_depths(const tree *t, int depth) {
    if (!t) return 0;
    return depth + sum_depths(t->left, depth + 1) + sum_depths(t->right, depth + 1);
}

static tree *mirror(tree *t) {
    if (t) {
        tree *l = mirror(t->left);
        t->left = mirror(t->right);
        t->right = l;
    }
    return t;
}

static void destroy(tree *t) {
    if (!t) return;
    destroy(t->left);
    destroy(t->right);
    free(t);
}

int main(void) {
    int keys[] = {50, 30, 70, 20, 40, 60, 80, 30, 65, 20, 20, 10};
    tree *root = NULL;
    for (unsigned i = 0; i < sizeof keys / sizeof *keys; i++) root = insert(root, keys[i]);
    printf("inorder:");
    inorder(root);
    printf("\npreorder:");
    preorder(root);
    printf("\nheight %d size %d depth sum %d\n", height(root), size(root), sum_depths(root, 0));
    for (int k = 60; k <= 66; k += 5) {
        const tree *f = find(root, k);
        printf("find %d: %s\n", k, f ? "yes" : "no");
    }
    root = mirror(root);
    printf("mirrored:");
    inorder(root);
    putchar('\n');
    destroy(root);
    return 0;
}
