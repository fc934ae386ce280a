/* Singly and doubly linked lists: push/pop, in-place reversal, merge sort on lists,
 * removal through a pointer-to-pointer, and a circular doubly linked list with a sentinel. */
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

static struct node *push(struct node *head, int v)
{
    struct node *n = malloc(sizeof *n);
    if (!n)
        exit(2);
    n->value = v;
    n->next = head;
    return n;
}

static struct node *reverse(struct node *head)
{
    struct node *prev = NULL;
    while (head) {
        struct node *next = head->next;
        head->next = prev;
        prev = head;
        head = next;
    }
    return prev;
}

static struct node *merge(struct node *a, struct node *b)
{
    struct node dummy = {0, NULL}, *tail = &dummy;
    while (a && b) {
        struct node **pick = a->value <= b->value ? &a : &b;
        tail->next = *pick;
        tail = *pick;
        *pick = (*pick)->next;
    }
    tail->next = a ? a : b;
    return dummy.next;
}

static struct node *sort(struct node *head)
{
    if (!head || !head->next)
        return head;
    struct node *slow = head, *fast = head->next;
    while (fast && fast->next) {
        slow = slow->next;
        fast = fast->next->next;
    }
    struct node *second = slow->next;
    slow->next = NULL;
    return merge(sort(head), sort(second));
}

static void remove_if(struct node **link, int (*pred)(int))
{
    while (*link) {
        if (pred((*link)->value)) {
            struct node *dead = *link;
            *link = dead->next;
            free(dead);
        } else {
            link = &(*link)->next;
        }
    }
}

static int is_multiple_of_3(int v) { return v % 3 == 0; }

static void print(const char *label, const struct node *n)
{
    printf("%s:", label);
    for (; n; n = n->next)
        printf(" %d", n->value);
    printf("\n");
}

struct dnode { int value; struct dnode *prev, *next; };

static void dinsert_before(struct dnode *pos, struct dnode *n)
{
    n->next = pos;
    n->prev = pos->prev;
    pos->prev->next = n;
    pos->prev = n;
}

int main(void)
{
    struct node *list = NULL;
    for (int i = 0; i < 12; i++)
        list = push(list, (i * 7) % 12);
    print("pushed", list);
    list = reverse(list);
    print("reversed", list);
    list = sort(list);
    print("sorted", list);
    remove_if(&list, is_multiple_of_3);
    print("no multiples of 3", list);
    while (list) {
        struct node *n = list;
        list = list->next;
        free(n);
    }

    struct dnode sentinel = {-1, &sentinel, &sentinel}, nodes[5];
    for (int i = 0; i < 5; i++) {
        nodes[i].value = i * i;
        dinsert_before(i % 2 ? sentinel.next : &sentinel, &nodes[i]);
    }
    printf("forward:");
    for (struct dnode *d = sentinel.next; d != &sentinel; d = d->next)
        printf(" %d", d->value);
    printf("\nbackward:");
    for (struct dnode *d = sentinel.prev; d != &sentinel; d = d->prev)
        printf(" %d", d->value);
    printf("\n");
    return 0;
}
