/* In the shape of Rodinia bfs: level-synchronous breadth-first search with frontier arrays
 * (mask, next mask, visited) over an undirected graph in CSR form on malloc'ed arrays. Each level
 * is two parallel loops: unvisited nodes pull from the current frontier (no two iterations write
 * the same element), then the next mask becomes the frontier and is counted. */
#include <stdio.h>
#include <stdlib.h>

#define NV 4000

int main(void)
{
    /* a ring plus chords i <-> 3i+1 (mod NV) in both directions */
    int *deg = calloc(NV, sizeof *deg);
    for (int v = 0; v < NV; v++) {
        int w = (3 * v + 1) % NV;
        deg[v] += 2;
        if (w != v) {
            deg[v]++;
            deg[w]++;
        }
    }
    int *rowp = malloc((NV + 1) * sizeof *rowp);
    rowp[0] = 0;
    for (int v = 0; v < NV; v++)
        rowp[v + 1] = rowp[v] + deg[v];
    int *adj = malloc(rowp[NV] * sizeof *adj), *fill = calloc(NV, sizeof *fill);
    for (int v = 0; v < NV; v++) {
        int w = (3 * v + 1) % NV;
        adj[rowp[v] + fill[v]++] = (v + 1) % NV;
        adj[rowp[v] + fill[v]++] = (v + NV - 1) % NV;
        if (w != v) {
            adj[rowp[v] + fill[v]++] = w;
            adj[rowp[w] + fill[w]++] = v;
        }
    }
    char *mask = calloc(NV, 1), *next = calloc(NV, 1), *visited = calloc(NV, 1);
    int *cost = malloc(NV * sizeof *cost);
    for (int v = 0; v < NV; v++)
        cost[v] = -1;
    int src = 17;
    mask[src] = 1;
    visited[src] = 1;
    cost[src] = 0;
    int level = 0, frontier = 1;
    while (frontier > 0) {
#pragma omp parallel for schedule(dynamic, 64)
        for (int v = 0; v < NV; v++) {
            next[v] = 0;
            if (visited[v])
                continue;
            for (int e = rowp[v]; e < rowp[v + 1]; e++)
                if (mask[adj[e]]) {
                    next[v] = 1;
                    cost[v] = level + 1;
                    break;
                }
        }
        frontier = 0;
#pragma omp parallel for reduction(+ : frontier)
        for (int v = 0; v < NV; v++) {
            mask[v] = next[v];
            if (next[v]) {
                visited[v] = 1;
                frontier++;
            }
        }
        level++;
        if (frontier > 0 && level % 2 == 0)
            printf("level %d: frontier %d\n", level, frontier);
    }
    long total = 0;
    int reached = 0, deepest = 0;
    for (int v = 0; v < NV; v++)
        if (cost[v] >= 0) {
            reached++;
            total += cost[v];
            deepest = cost[v] > deepest ? cost[v] : deepest;
        }
    printf("levels=%d reached=%d deepest=%d sum=%ld cost[0]=%d cost[3999]=%d\n", level, reached,
           deepest, total, cost[0], cost[NV - 1]);
    free(deg);
    free(rowp);
    free(adj);
    free(fill);
    free(mask);
    free(next);
    free(visited);
    free(cost);
    return 0;
}
