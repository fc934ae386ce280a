// Two bugs of issue 18: `atomic write` whose expression reads another element of the array
// it writes (BFS's `cost[u] = cost[v] + 1`, valid: the expression does not access the
// written element), and `target` regions inside tasks with `default(private)` and
// `default(firstprivate)` (the host code of the launch may not name file-scope state
// that such a task would have to list).
#include <stdio.h>

#define NV 64
#define NE 192

static int level_sum(const int *cost) {
  int s = 0;
  for (int i = 0; i < NV; i++) s += cost[i] * (i + 1);
  return s;
}

int main(void) {
  int src[NE], dst[NE], cost[NV];
  for (int e = 0; e < NE; e++) {
    src[e] = (e * 7) % NV;
    dst[e] = (e * 13 + 5) % NV;
  }
  for (int v = 0; v < NV; v++) cost[v] = -1;
  cost[0] = 0;
  int changed = 1, level = 0;
  while (changed) {
    changed = 0;
#pragma omp target teams distribute parallel for map(to : src, dst) map(tofrom : cost, changed)
    for (int e = 0; e < NE; e++) {
      int v = src[e], u = dst[e];
      if (cost[v] == level && cost[u] < 0) {
#pragma omp atomic write
        cost[u] = cost[v] + 1;
#pragma omp atomic write
        changed = 1;
      }
    }
    level++;
  }
  printf("levels %d weighted %d\n", level, level_sum(cost));

  int res_private = 0, res_first = 0;
  int scale = 3;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task default(private) shared(res_private)
    {
      int loc[16], s = 0;
#pragma omp target map(from : loc)
      for (int i = 0; i < 16; i++) loc[i] = i * i;
      for (int i = 0; i < 16; i++) s += loc[i];
      res_private = s;
    }
#pragma omp task default(firstprivate) shared(res_first)
    {
      int t = 0;
#pragma omp target teams distribute parallel for reduction(+ : t) map(tofrom : t)
      for (int i = 0; i < 100; i++) t += i * scale;
      res_first = t;
    }
#pragma omp taskwait
  }
  printf("task default(private) %d, default(firstprivate) %d\n", res_private, res_first);
  return 0;
}
