// A time-step loop of plain OpenMP loops: each provably safe one gets a device version (the
// data planner keeps the arrays on the device across them); the printing loop stays.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 1000
double g[N];

static double sq(double x) { return x * x; }

void step(int n, double *a, const double *b) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = 0.5 * (a[i] + sqrt(sq(b[i])));
}

int main(void) {
  int n = N;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) {
    a[i] = i;
    b[i] = n - i;
  }
  for (int t = 0; t < 5; t++) {
    step(n, a, b);
    double s = 0;
#pragma omp parallel for reduction(+: s)
    for (int i = 0; i < n; i++)
      s += a[i];
#pragma omp parallel for
    for (int i = 0; i < N; i++)
      g[i] = a[i] * 2;
    printf("%d %.6f %.3f\n", t, s, g[7]);
  }
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    if (a[i] < 0)
      printf("negative at %d\n", i);
  free(a);
  free(b);
  return 0;
}
