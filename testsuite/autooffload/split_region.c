// A 'parallel' region of work-sharing loops becomes one kernel per loop, its 'single' code
// runs on the host between them; a region with code every thread runs stays on the host.
#include <math.h>
#include <stdio.h>

#define N 256
static double x[N], y[N];

int main(void) {
  double norm = 0.0, scale = 1.0;
  for (int i = 0; i < N; i++)
    x[i] = 1.0 + i % 7;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < N; i++)
      y[i] = 2.0 * x[i];
#pragma omp for reduction(+: norm)
    for (int i = 0; i < N; i++)
      norm += y[i] * y[i];
#pragma omp single
    scale = 1.0 / sqrt(norm);
#pragma omp for
    for (int i = 0; i < N; i++)
      x[i] = y[i] * scale;
  }
  int hits = 0;
#pragma omp parallel
  {
    int mine = 0;
#pragma omp for
    for (int i = 0; i < N; i++)
      mine += x[i] > 0.05;
#pragma omp atomic
    hits += mine;
  }
  printf("%.6f %.6f %d\n", norm, x[5], hits);
  return 0;
}
