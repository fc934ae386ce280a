/* bfs, expert form: the computation of bfs_naive.c with hand-written data movement. One data
 * region around the level loop: the graph `to`, the node arrays `to` (the host initialized
 * them), `cost` `tofrom` (the host reads it after the loop); per level only the `stop` flag
 * moves (mapped `tofrom` on the kernel that clears it, after the host set it).
 */
// plan-data: time-stepped
#include <stdio.h>
#include <stdlib.h>

#define NV 24000
#define DEG 4

int main(void)
{
    int *rowp = malloc((NV + 1) * sizeof *rowp), *adj = malloc(NV * DEG * sizeof *adj);
    int *mask = malloc(NV * sizeof *mask), *next = malloc(NV * sizeof *next);
    int *visited = malloc(NV * sizeof *visited), *cost = malloc(NV * sizeof *cost);
    for (int v = 0; v < NV; v++) {
        rowp[v] = v * DEG;
        adj[v * DEG + 0] = (v + 1) % NV;
        adj[v * DEG + 1] = (v + NV - 1) % NV;
        adj[v * DEG + 2] = (int)(((long)v * 7919 + 13) % NV) / 61 * 61;
        adj[v * DEG + 3] = (v + 997) % NV;
        mask[v] = next[v] = visited[v] = 0;
        cost[v] = -1;
    }
    rowp[NV] = NV * DEG;
    mask[0] = visited[0] = 1;
    cost[0] = 0;
    int stop = 0, levels = 0;
#pragma omp target data map(to : rowp[0:NV + 1], adj[0:NV * DEG], mask[0:NV], next[0:NV], visited[0:NV]) map(tofrom : cost[0:NV])
    do {
#pragma omp target teams distribute parallel for
        for (int v = 0; v < NV; v++) {
            if (!mask[v])
                continue;
            mask[v] = 0;
            for (int e = rowp[v]; e < rowp[v + 1]; e++) {
                int w = adj[e];
                if (!visited[w]) {
                    cost[w] = cost[v] + 1; /* every writer of w stores the same level */
                    next[w] = 1;
                }
            }
        }
        stop = 1;
#pragma omp target teams distribute parallel for map(tofrom : stop)
        for (int v = 0; v < NV; v++) {
            if (next[v]) {
                mask[v] = 1;
                visited[v] = 1;
                next[v] = 0;
                stop = 0; /* every writer stores the same value */
            }
        }
        levels++;
    } while (!stop);
    long sum = 0;
    int reached = 0, deepest = 0;
    for (int v = 0; v < NV; v++)
        if (cost[v] >= 0) {
            reached++;
            sum += cost[v];
            deepest = cost[v] > deepest ? cost[v] : deepest;
        }
    printf("bfs nodes %d levels %d reached %d deepest %d cost sum %ld cost[%d] %d\n", NV, levels,
           reached, deepest, sum, NV / 2, cost[NV / 2]);
    free(rowp);
    free(adj);
    free(mask);
    free(next);
    free(visited);
    free(cost);
    return 0;
}
