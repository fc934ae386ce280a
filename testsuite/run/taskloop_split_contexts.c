/* Device taskloops split into tasks as libgomp does wherever they are encountered: in a
 * single and in a master region of a target's parallel region (the split follows the
 * clause, not the team: another thread may run each task on the host), in the body of a
 * target teams distribute loop (one task without a clause: each team's initial thread is a
 * team of one), in a declare-target function, and as the combined parallel masked taskloop.
 * Each task's firstprivate counter shows where it begins. */
#include <omp.h>
#include <stdio.h>

#define N 17
#define T 4

#pragma omp declare target
static void fill(int *out, int n, int c, int grain) {
#pragma omp taskloop firstprivate(c) grainsize(grain)
  for (int i = 0; i < n; i++) out[i] = c++;
}

static int count_tasks(const int *v, int n, int base) {
  int tasks = 0;
  for (int i = 0; i < n; i++) tasks += v[i] == base;
  return tasks;
}
#pragma omp end declare target

static void show(const char *what, const int *v, int n) {
  printf("%-8s", what);
  for (int i = 0; i < n; i++) printf(" %d", v[i]);
  printf("\n");
}

int main(void) {
  int sg[N], ms[N], comb[N], fn[N], fn2[N], dist[T][N], ntasks[T];
  int c = 50;
#pragma omp target map(from: sg, ms, comb)
  {
#pragma omp parallel num_threads(3) shared(sg, ms)
    {
#pragma omp single
      {
#pragma omp taskloop firstprivate(c) grainsize(strict: 4)
        for (int i = 0; i < N; i++) sg[i] = c++;
      }
#pragma omp master
      {
#pragma omp taskloop firstprivate(c) num_tasks(5)
        for (int i = N - 1; i >= 0; i--) ms[i] = c++;
      }
    }
#pragma omp parallel masked taskloop firstprivate(c) shared(comb) num_threads(2) grainsize(3)
    for (int i = 0; i < N; i++) comb[i] = c++;
  }
  show("single", sg, N);
  show("master", ms, N);
  show("combined", comb, N);

#pragma omp target teams distribute map(from: dist, ntasks) num_teams(2)
  for (int t = 0; t < T; t++) {
    int *row = dist[t];
#pragma omp taskloop firstprivate(c) num_tasks(t + 1)
    for (int i = 0; i < N; i++) row[i] = c++;
    int own[N];
#pragma omp taskloop firstprivate(c) shared(own)
    for (int i = 0; i < N; i++) own[i] = c++;
    ntasks[t] = count_tasks(own, N, c);
  }
  for (int t = 0; t < T; t++) show("teams", dist[t], N);
  show("default", ntasks, T);

#pragma omp target map(from: fn, fn2)
  {
    fill(fn, N, 7, 5);
    fill(fn2, N - 3, 0, 100);
  }
  show("function", fn, N);
  show("function", fn2, N - 3);
  return 0;
}
