/* bfs, naive form. Rodinia's BFS shape (OMPDart's and DawnCC's evaluations): a level-synchronous
 * breadth-first search over a graph in CSR form, with Rodinia's four node arrays (mask, updating
 * mask, visited, cost) and a `stop` flag the host tests after each level. Time-stepped: one
 * pair of kernels per level, 20+ levels.
 *
 * What a new user writes: both kernels map every array `tofrom` on every level, the flag too.
 * A planner should: hoist the graph (`rowp`, `adj`: read-only, `to` once) and the node arrays
 * out of the level loop into one data region, copy in only what the host initialized before
 * the loop, keep `stop` as the only per-level transfer (the host writes it at line 53,
 * before the second kernel, and reads it in the loop condition at line 64: `to` before,
 * `from` after), and copy back only `cost`, the array the host reads after the loop (line
 * 68); `mask`, `next`, `visited` are device-only after initialization.
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
    do {
#pragma omp target teams distribute parallel for map(tofrom : rowp[0:NV + 1], adj[0:NV * DEG], mask[0:NV], next[0:NV], visited[0:NV], cost[0:NV])
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
#pragma omp target teams distribute parallel for map(tofrom : mask[0:NV], next[0:NV], visited[0:NV], stop)
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
