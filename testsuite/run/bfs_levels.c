/* Level-synchronous BFS on a 3000-node graph in CSR form: one kernel per level marks the next
 * frontier (benign races write the same value), a reduction counts it; depths are exact. */
#include <stdio.h>
#include <stdlib.h>

#define NV 3000
#define DEG 3

int main(void)
{
    int *rowp = malloc((NV + 1) * sizeof *rowp), *adj = malloc(NV * DEG * sizeof *adj);
    int *depth = malloc(NV * sizeof *depth);
    for (int v = 0; v < NV; v++) {
        rowp[v] = v * DEG;
        adj[v * DEG + 0] = (v + 1) % NV;
        adj[v * DEG + 1] = (v * 7 + 3) % NV;
        adj[v * DEG + 2] = (v / 2);
        depth[v] = -1;
    }
    rowp[NV] = NV * DEG;
    depth[0] = 0;
    int level = 0, frontier = 1;
#pragma omp target data map(to : rowp[0:NV + 1], adj[0:NV * DEG]) map(tofrom : depth[0:NV])
    while (frontier > 0) {
        frontier = 0;
#pragma omp target teams distribute parallel for
        for (int v = 0; v < NV; v++) {
            if (depth[v] != level)
                continue;
            for (int e = rowp[v]; e < rowp[v + 1]; e++) {
                int w = adj[e];
                if (depth[w] == -1)
                    depth[w] = level + 1; /* every writer stores the same value */
            }
        }
#pragma omp target teams distribute parallel for reduction(+ : frontier)
        for (int v = 0; v < NV; v++)
            frontier += depth[v] == level + 1;
        level++;
    }
    long sum = 0;
    int reached = 0, maxd = 0;
    for (int v = 0; v < NV; v++)
        if (depth[v] >= 0) {
            reached++;
            sum += depth[v];
            maxd = depth[v] > maxd ? depth[v] : maxd;
        }
    printf("levels=%d reached=%d maxdepth=%d sum=%ld depth[2999]=%d\n", level, reached, maxd, sum,
           depth[NV - 1]);
    free(rowp);
    free(adj);
    free(depth);
    return 0;
}
