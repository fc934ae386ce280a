// A time-stepped stencil on pointer parameters: the data stays on the device across the
// steps, the host's boundary fix-up gets an update from before and an update to after it,
// the printed element an update from, and the two pointers (which may alias) a run-time check.
#include <stdio.h>

void step(double *a, double *b, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for
    for (int i = 1; i < n - 1; i++)
      b[i] = 0.5 * (a[i - 1] + a[i + 1]);
    b[0] = b[1];
    #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
      a[i] = b[i];
    if (t % 5 == 0)
      printf("%d %.3f\n", t, a[n / 2]);
  }
}
