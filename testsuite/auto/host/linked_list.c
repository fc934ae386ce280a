/* Must stay on the host: every iteration chases `next` pointers through a linked list built
 * node by node with malloc, so the data the loop reads has no section an analysis can describe
 * (the bases are loaded from memory, not indexed). */
#include <stdio.h>
#include <stdlib.h>

#define NODES 600
#define QUERIES 1500

struct node {
    int key;
    long payload;
    struct node *next;
};

int main(void)
{
    struct node *head = NULL;
    for (int i = 0; i < NODES; i++) { /* pushed at the front: keys end up in descending order */
        struct node *n = malloc(sizeof *n);
        n->key = i * 3;
        n->payload = (long)i * i % 1009;
        n->next = head;
        head = n;
    }
    static long found[QUERIES];
    static int depth[QUERIES];
#pragma omp parallel for schedule(static, 8)
    for (int q = 0; q < QUERIES; q++) {
        int want = q;
        int d = 0;
        long val = -1;
        for (struct node *p = head; p; p = p->next, d++)
            if (p->key == want) {
                val = p->payload;
                break;
            }
        found[q] = val;
        depth[q] = d;
    }
    long hits = 0, sum = 0, steps = 0;
    for (int q = 0; q < QUERIES; q++) {
        if (found[q] >= 0) {
            hits++;
            sum += found[q];
        }
        steps += depth[q];
    }
    printf("hits=%ld payload sum=%ld total steps=%ld\n", hits, sum, steps);
    while (head) {
        struct node *n = head->next;
        free(head);
        head = n;
    }
    return 0;
}
