// `requires unified_shared_memory` (gcc 12: "sorry, unimplemented", so usm_global_stack.expected
// holds the output the specification prescribes): file-scope arrays and arrays on the host's
// stack are read and written in target regions through pointers that nothing maps, and used
// directly; a declare target variable keeps its own device copy, synchronized by update.
#include <stdio.h>

#pragma omp requires unified_shared_memory

#define N 256

int table[N];
static double weights[N];
int scale = 3;
#pragma omp declare target
int on_device = 5;
#pragma omp end declare target

static void fill(int *dst, const int *src, int n) {
  // a function that gets pointers: the region dereferences them as they are
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    dst[i] = src[i] + 1;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    table[i] = i;
    weights[i] = 1.0 / (i + 1);
  }
  int local[N];
  int *pt = table, *pl = local;
  // Through pointers: the stack array is written from the global one.
  fill(pl, pt, N);
  printf("local[0]=%d local[255]=%d\n", local[0], local[N - 1]);

  // Directly: the global and the stack array in one region, no map clauses.
  long dot = 0;
#pragma omp target teams distribute parallel for reduction(+: dot)
  for (int i = 0; i < N; i++) {
    table[i] = local[i] * scale;
    dot += (long)table[i] * local[i];
  }
  printf("table[10]=%d dot=%ld\n", table[10], dot);

  // A stack scalar and a stack struct reached through pointers.
  struct {
    int hits;
    double total;
  } stats = {0, 0.0};
  int count = 0;
  int *pc = &count;
  void *ps = &stats;
#pragma omp target
  {
    for (int i = 0; i < N; i += 2) {
      (*pc)++;
      ((int *)ps)[0] += i % 3 == 0;
    }
  }
  double *pw = weights;
#pragma omp target
  {
    double t = 0;
    for (int i = 0; i < N; i++)
      t += pw[i];
    *(double *)((char *)ps + sizeof(double)) = t;
  }
  printf("count=%d hits=%d total=%.6f\n", count, stats.hits, stats.total);

  // declare target: the device copy changes by update and by device code only.
  on_device = 7;
#pragma omp target update to(on_device)
  int seen = 0;
#pragma omp target map(from: seen)
  {
    seen = on_device;
    on_device *= 2;
  }
#pragma omp target update from(on_device)
  printf("seen=%d on_device=%d\n", seen, on_device);
  return 0;
}
