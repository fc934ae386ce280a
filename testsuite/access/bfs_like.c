// a frontier loop with a while and indirect updates
void bfs(int n, const int *adj, const int *start, int *level, int *frontier) {
  int head = 0, tail = 1;
  frontier[0] = 0;
  while (head < tail) {
    int v = frontier[head++];
    for (int e = start[v]; e < start[v + 1]; e++) {
      int w = adj[e];
      if (level[w] < 0) {
        level[w] = level[v] + 1;
        frontier[tail++] = w;
      }
    }
  }
}
