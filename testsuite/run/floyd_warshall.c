/* Floyd-Warshall on a 48-node graph: the k loop on the host inside a target data region, a
 * collapse(2) kernel per k on an int distance matrix; path-length checksums. */
#include <stdio.h>

#define V 48
#define INF 1000000

static int d[V][V];

int main(void)
{
    for (int i = 0; i < V; i++)
        for (int j = 0; j < V; j++) {
            if (i == j)
                d[i][j] = 0;
            else if ((i * 7 + j * 3) % 5 == 0 || j == (i + 1) % V)
                d[i][j] = 1 + (i * j) % 17;
            else
                d[i][j] = INF;
        }
#pragma omp target data map(tofrom : d)
    for (int k = 0; k < V; k++) {
#pragma omp target teams distribute parallel for collapse(2) firstprivate(k)
        for (int i = 0; i < V; i++)
            for (int j = 0; j < V; j++) {
                int via = d[i][k] + d[k][j];
                if (via < d[i][j])
                    d[i][j] = via;
            }
    }
    long sum = 0;
    int maxd = 0, unreachable = 0;
    for (int i = 0; i < V; i++)
        for (int j = 0; j < V; j++) {
            if (d[i][j] >= INF) {
                unreachable++;
                continue;
            }
            sum += d[i][j];
            if (d[i][j] > maxd)
                maxd = d[i][j];
        }
    printf("sum=%ld max=%d unreachable=%d d[0][47]=%d d[20][3]=%d\n", sum, maxd, unreachable,
           d[0][V - 1], d[20][3]);
    return 0;
}
