/* Graph algorithms on an adjacency-list graph: BFS distances, iterative and recursive DFS,
 * connected components, cycle detection and a topological sort of a DAG (Kahn's algorithm). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#define MAXV 16

typedef struct {
    int n;
    int deg[MAXV];
    int adj[MAXV][MAXV];
} graph;

static void add_edge(graph *g, int u, int v, bool directed)
{
    g->adj[u][g->deg[u]++] = v;
    if (!directed)
        g->adj[v][g->deg[v]++] = u;
}

static void bfs(const graph *g, int src, int *dist)
{
    int queue[MAXV], head = 0, tail = 0;
    for (int i = 0; i < g->n; i++)
        dist[i] = -1;
    dist[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int u = queue[head++];
        for (int k = 0; k < g->deg[u]; k++) {
            int v = g->adj[u][k];
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                queue[tail++] = v;
            }
        }
    }
}

static void dfs_recursive(const graph *g, int u, bool *seen, int comp, int *label)
{
    seen[u] = true;
    label[u] = comp;
    for (int k = 0; k < g->deg[u]; k++)
        if (!seen[g->adj[u][k]])
            dfs_recursive(g, g->adj[u][k], seen, comp, label);
}

static void dfs_iterative(const graph *g, int src)
{
    bool seen[MAXV] = {false};
    int stack[MAXV * MAXV], sp = 0;
    stack[sp++] = src;
    printf("dfs order:");
    while (sp) {
        int u = stack[--sp];
        if (seen[u])
            continue;
        seen[u] = true;
        printf(" %d", u);
        for (int k = g->deg[u] - 1; k >= 0; k--)
            if (!seen[g->adj[u][k]])
                stack[sp++] = g->adj[u][k];
    }
    printf("\n");
}

static int topo_sort(const graph *g, int *order)
{
    int indeg[MAXV] = {0}, queue[MAXV], head = 0, tail = 0;
    for (int u = 0; u < g->n; u++)
        for (int k = 0; k < g->deg[u]; k++)
            indeg[g->adj[u][k]]++;
    for (int u = 0; u < g->n; u++)
        if (indeg[u] == 0)
            queue[tail++] = u;
    int count = 0;
    while (head < tail) {
        int u = queue[head++];
        order[count++] = u;
        for (int k = 0; k < g->deg[u]; k++)
            if (--indeg[g->adj[u][k]] == 0)
                queue[tail++] = g->adj[u][k];
    }
    return count; /* < n means a cycle */
}

int main(void)
{
    graph g;
    memset(&g, 0, sizeof g);
    g.n = 12;
    static const int edges[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {4, 5}, {2, 6},
                                   {7, 8}, {8, 9}, {9, 7}, {10, 11}};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        add_edge(&g, edges[i][0], edges[i][1], false);
    int dist[MAXV];
    bfs(&g, 0, dist);
    printf("bfs from 0:");
    for (int i = 0; i < g.n; i++)
        printf(" %d", dist[i]);
    printf("\n");
    dfs_iterative(&g, 0);
    bool seen[MAXV] = {false};
    int label[MAXV], comps = 0;
    for (int u = 0; u < g.n; u++)
        if (!seen[u])
            dfs_recursive(&g, u, seen, comps++, label);
    printf("components=%d labels:", comps);
    for (int u = 0; u < g.n; u++)
        printf(" %d", label[u]);
    printf("\n");

    graph dag;
    memset(&dag, 0, sizeof dag);
    dag.n = 8;
    static const int dedges[][2] = {{5, 2}, {5, 0}, {4, 0}, {4, 1}, {2, 3}, {3, 1}, {6, 7}, {7, 5}};
    for (size_t i = 0; i < sizeof dedges / sizeof dedges[0]; i++)
        add_edge(&dag, dedges[i][0], dedges[i][1], true);
    int order[MAXV], n = topo_sort(&dag, order);
    printf("topological:");
    for (int i = 0; i < n; i++)
        printf(" %d", order[i]);
    printf(" (%s)\n", n == dag.n ? "acyclic" : "cycle");
    add_edge(&dag, 1, 6, true);
    printf("after adding 1->6: %s\n", topo_sort(&dag, order) == dag.n ? "acyclic" : "cycle");
    return 0;
}
