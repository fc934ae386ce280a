// A spliced callee's section names its own scalar parameter (`a[0:n]` in `step`): the call
// passes the caller's variable, which holds one value across the range, so the section is
// the caller's `a[0:n]` (and the callee's region gets the clause in its own names), also
// through two levels of calls. A callee that assigns its parameter keeps it unbound: its
// section cannot be named in the caller, and that pointer is not planned. A call whose
// result is added up (`s += f(...)`) is spliced too: the host reads the section inside the
// callee, where the update names it.
#include <stdlib.h>

void step(double *a, int n) {
  #pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 0.5 + 1.0;
}

void twice(double *x, int m) {
  step(x, m);
}

void shrink(double *a, int n) {
  n = n - 1;
  #pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    a[i] += 1.0;
}

double run(int n, int steps) {
  double *a = malloc(n * sizeof *a), s = 0;
  for (int i = 0; i < n; i++)
    a[i] = i;
  for (int t = 0; t < steps; t++)
    twice(a, n);
  for (int i = 0; i < n; i++)
    s += a[i];
  free(a);
  return s;
}

double run_shrink(int n, int steps) {
  double *a = malloc(n * sizeof *a), s = 0;
  for (int i = 0; i < n; i++)
    a[i] = i;
  for (int t = 0; t < steps; t++)
    shrink(a, n);
  for (int i = 0; i < n; i++)
    s += a[i];
  free(a);
  return s;
}

double halve_sum(double *a, int n) {
  #pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 0.5 + 1.0;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

double run_sum(int n, int steps) {
  double *a = malloc(n * sizeof *a), s = 0;
  for (int i = 0; i < n; i++)
    a[i] = i;
  for (int t = 0; t < steps; t++)
    s += halve_sum(a, n);
  free(a);
  return s;
}
