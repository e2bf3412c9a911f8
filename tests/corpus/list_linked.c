// Self-referential structs: a singly linked list with malloc/free: push, append, reverse, remove, insert sorted.
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

static struct node *push(struct node *head, int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->next = head;
    return n;
}

static void append(struct node **head, int v) {
    while (*head) head = &(*head)->next;
    *head = push(NULL, v);
}

static struct node *reverse(struct node *head) {
    struct node *prev = NULL;
    while (head) {
        struct node *next = head->next;
        head->next = prev;
        prev = head;
        head = next;
    }
    return prev;
}

static int remove_value(struct node **head, int v) {
    for (struct node **pp = head; *pp; pp = &(*pp)->next) {
        if ((*pp)->value == v) {
            struct node *dead = *pp;
            *pp = dead->next;
            free(dead);
            return 1;
        }
    }
    return 0;
}

static void insert_sorted(struct node **head, int v) {
    while (*head && (*head)->value < v) head = &(*head)->next;
    struct node *n = push(*head, v);
    *head = n;
}

static void print(const char *label, const struct node *n) {
    printf("%s:", label);
    for (; n; n = n->next) printf(" %d", n->value);
    putchar('\n');
}

static void free_list(struct node *n) {
    while (n) {
        struct node *next = n->next;
        free(n);
        n = next;
    }
}

int main(void) {
    struct node *list = NULL;
    for (int i = 1; i <= 5; i++) list = push(list, i * 10);
    print("pushed", list);
    append(&list, 99);
    append(&list, 100);
    print("appended", list);
    list = reverse(list);
    print("reversed", list);
    printf("remove 30: %d, remove 31: %d\n", remove_value(&list, 30), remove_value(&list, 31));
    printf("remove head: %d\n", remove_value(&list, list->value));
    print("after removes", list);
    free_list(list);

    struct node *sorted = NULL;
    int data[] = {5, 2, 9, 1, 5, 6, 0, 3};
    for (int i = 0; i < 8; i++) insert_sorted(&sorted, data[i]);
    print("sorted", sorted);
    int len = 0, sum = 0;
    for (struct node *n = sorted; n; n = n->next) {
        len++;
        sum += n->value;
    }
    printf("len %d sum %d\n", len, sum);
    struct node *slow = sorted, *fast = sorted;
    while (fast && fast->next) {
        slow = slow->next;
        fast = fast->next->next;
    }
    printf("middle %d\n", slow->value);
    free_list(sorted);
    return 0;
}
