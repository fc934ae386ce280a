// A function called from host code between the regions has target regions of its own on
// 'a'. The caller may plan 'a' only with the callee taken into its flow; here the callee's
// section uses its parameter 'n', which main cannot name, so 'a' is not planned (an update
// 'to' after the call would have overwritten the kernel's result).
#include <stdio.h>
#include <stdlib.h>

void step(int n, double *a, const double *b) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: b[0:n])
  for (int i = 0; i < n; i++)
    a[i] = 0.5 * (a[i] + b[i]);
}

int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) {
    a[i] = i;
    b[i] = n - i;
  }
  for (int t = 0; t < 5; t++) {
    step(n, a, b);
    double s = 0;
#pragma omp target teams distribute parallel for reduction(+: s) map(to: a[0:n]) map(tofrom: s)
    for (int i = 0; i < n; i++)
      s += a[i];
    printf("%d %.6f\n", t, s);
  }
  free(a);
  free(b);
  return 0;
}
