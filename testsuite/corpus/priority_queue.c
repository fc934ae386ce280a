/* Binary min-heap priority queue with decrease-by-reinsert, used for heap sort of records
 * and for Dijkstra's shortest paths on a small weighted graph. */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>

typedef struct { int prio, item; } pq_elem;
typedef struct { pq_elem *data; int size, cap; } pq;

static void pq_push(pq *q, int prio, int item)
{
    if (q->size == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 4;
        q->data = realloc(q->data, (size_t)q->cap * sizeof *q->data);
        if (!q->data)
            exit(3);
    }
    int i = q->size++;
    /* ties broken by item so the pop order is fully determined */
    while (i > 0) {
        int p = (i - 1) / 2;
        pq_elem up = q->data[p];
        if (up.prio < prio || (up.prio == prio && up.item <= item))
            break;
        q->data[i] = up;
        i = p;
    }
    q->data[i] = (pq_elem){prio, item};
}

static pq_elem pq_pop(pq *q)
{
    pq_elem top = q->data[0], last = q->data[--q->size];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= q->size)
            break;
        if (c + 1 < q->size && (q->data[c + 1].prio < q->data[c].prio ||
                                (q->data[c + 1].prio == q->data[c].prio &&
                                 q->data[c + 1].item < q->data[c].item)))
            c++;
        if (last.prio < q->data[c].prio || (last.prio == q->data[c].prio && last.item <= q->data[c].item))
            break;
        q->data[i] = q->data[c];
        i = c;
    }
    q->data[i] = last;
    return top;
}

#define V 9

int main(void)
{
    pq q = {NULL, 0, 0};
    static const int prios[] = {42, 7, 19, 7, 88, 3, 56, 19, 21, 0, 64, 7};
    for (int i = 0; i < 12; i++)
        pq_push(&q, prios[i], i);
    printf("pop order:");
    while (q.size) {
        pq_elem e = pq_pop(&q);
        printf(" %d(#%d)", e.prio, e.item);
    }
    printf("\n");

    static const int w[V][V] = {
        {0, 4, 0, 0, 0, 0, 0, 8, 0},  {4, 0, 8, 0, 0, 0, 0, 11, 0}, {0, 8, 0, 7, 0, 4, 0, 0, 2},
        {0, 0, 7, 0, 9, 14, 0, 0, 0}, {0, 0, 0, 9, 0, 10, 0, 0, 0}, {0, 0, 4, 14, 10, 0, 2, 0, 0},
        {0, 0, 0, 0, 0, 2, 0, 1, 6},  {8, 11, 0, 0, 0, 0, 1, 0, 7}, {0, 0, 2, 0, 0, 0, 6, 7, 0}};
    int dist[V], prev[V];
    for (int i = 0; i < V; i++) {
        dist[i] = INT_MAX;
        prev[i] = -1;
    }
    dist[0] = 0;
    pq_push(&q, 0, 0);
    int pops = 0;
    while (q.size) {
        pq_elem e = pq_pop(&q);
        pops++;
        if (e.prio > dist[e.item])
            continue; /* stale entry */
        for (int v = 0; v < V; v++)
            if (w[e.item][v] && dist[e.item] + w[e.item][v] < dist[v]) {
                dist[v] = dist[e.item] + w[e.item][v];
                prev[v] = e.item;
                pq_push(&q, dist[v], v);
            }
    }
    for (int v = 0; v < V; v++) {
        printf("to %d: %2d via", v, dist[v]);
        for (int u = v; u != -1; u = prev[u])
            printf(" %d", u);
        printf("\n");
    }
    printf("heap pops=%d\n", pops);
    free(q.data);
    return 0;
}
