// `requires unified_shared_memory` (gcc 12: "sorry, unimplemented", so usm_malloc_array.expected
// holds the output the specification prescribes): malloc'ed arrays are written in target regions
// without map clauses and read on the host; explicit maps, target data and target update stay
// legal and mean the same storage.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#pragma omp requires unified_shared_memory

#define N 1000

int main(void) {
  double *x = malloc(N * sizeof *x);
  double *y = malloc(N * sizeof *y);
  int *flags = calloc(N, sizeof *flags);
  for (int i = 0; i < N; i++)
    x[i] = i * 0.5;

  // No map clause: the kernel reads x and writes y through the host pointers.
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    y[i] = 2.0 * x[i] + 1.0;
  double s = 0;
  for (int i = 0; i < N; i++)
    s += y[i];
  printf("unmapped: y[0]=%g y[999]=%g sum=%g\n", y[0], y[N - 1], s);

  // The host changes x; the next region sees it without any update.
  for (int i = 0; i < N; i++)
    x[i] = -x[i];
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    flags[i] = x[i] < -100.0;
  int set = 0;
  for (int i = 0; i < N; i++)
    set += flags[i];
  printf("flags set=%d\n", set);

  // Explicit maps are still allowed, with the usual meaning for a conforming program.
#pragma omp target teams distribute parallel for map(to: x[0:N]) map(tofrom: y[0:N])
  for (int i = 0; i < N; i++)
    y[i] += x[i];
  printf("mapped: y[10]=%g y[500]=%g\n", y[10], y[500]);

  // A data region around two kernels, a host read after target update from.
  double sum = 0;
#pragma omp target data map(tofrom: y[0:N]) map(to: x[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      y[i] = y[i] * 4.0;
#pragma omp target update from(y[0:N])
    printf("inside data region: y[1]=%g present=%d\n", y[1],
           omp_target_is_present(y, omp_get_default_device()));
#pragma omp target teams distribute parallel for reduction(+: sum)
    for (int i = 0; i < N; i++)
      sum += y[i] - x[i];
  }
  printf("reduction sum=%g\n", sum);

  // enter/exit data with a kernel between them, the pointer used without a map.
#pragma omp target enter data map(to: x[0:N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    x[i] = x[i] * x[i];
#pragma omp target exit data map(from: x[0:N])
  printf("x[3]=%g x[999]=%g\n", x[3], x[N - 1]);

  free(x);
  free(y);
  free(flags);
  return 0;
}
